/**
 * The system events of GitLab's `SystemHooksService` (doc/administration/system_hooks.md;
 * `Gitlab::HookData::ProjectBuilder`, `UserBuilder`, `GroupBuilder`, `ProjectMemberBuilder`,
 * `GroupMemberBuilder`): each function here puts one outbox item (`store/system-events.ts`) for
 * the delivery function to send to the system hooks. The features that make the changes do not
 * import this module: they tell their listeners (`onProjectCreated`, `onUserCreated`, ...), which
 * the composition root (`functions/api.ts`) registers with these, loaded on first use.
 *
 * What the event knows when it happens goes in the item (a destroyed project's or user's fields
 * are gone by delivery, a member's project may be); a project's owners, which take a few reads, are
 * read by delivery (`system-delivery.ts`), off the request's path.
 *
 * Emails: `user_create`/`user_destroy` carry the user's email (GitLab's `UserBuilder` sends
 * `user.email` to system hooks); a project's owners and a member are shown with their public email,
 * which users here do not have: `[REDACTED]` (GitLab's `webhook_email`), as in every webhook payload.
 */
import type { Membership, MemberSource } from '../auth';
import { readNamespaceRecord, type Namespace } from '../namespaces';
import { projectFullPath, readProjectRecord, type Project } from '../projects';
import type { User } from '../users';
import { putSystemHookEvent } from './store/system-events';

/** GitLab's `xmlschema` time of the system events' `created_at` / `updated_at` (`2012-07-21T07:30:54Z`). */
export const systemTime = (iso: string | null | undefined): string | null => (iso ? `${new Date(iso).toISOString().slice(0, 19)}Z` : null);

/** GitLab's `human_access` of an access level. */
export function humanAccess(level: number): string {
  const names: Record<number, string> = { 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };
  return names[level] ?? String(level);
}

/** Internal: the fields of a project event (its owners are completed by delivery). */
function projectData(project: Project, namespace: Namespace | undefined) {
  return {
    created_at: systemTime(project.createdAt),
    updated_at: systemTime(project.updatedAt),
    name: project.name,
    path: project.path,
    path_with_namespace: namespace ? projectFullPath(namespace, project) : project.path,
    project_id: project.id,
    project_namespace_id: project.namespaceId,
    project_visibility: project.visibility,
  };
}

/** `project_create`: a new project (a fork included), in `namespace`. */
export async function projectCreated(event: { project: Project; namespace: Namespace }): Promise<void> {
  await putSystemHookEvent('project_create', { event_name: 'project_create', ...projectData(event.project, event.namespace) }, { ownersOf: event.project.namespaceId });
}

/** `project_destroy`: a project deleted (by the jobs worker: its namespace is read here, while it is there). */
export async function projectDestroyed(project: Project): Promise<void> {
  const namespace = await readNamespaceRecord(project.namespaceId);
  await putSystemHookEvent('project_destroy', { event_name: 'project_destroy', ...projectData(project, namespace) }, { ownersOf: project.namespaceId });
}

const userData = (user: User) => ({
  created_at: systemTime(user.createdAt),
  updated_at: systemTime(user.updatedAt),
  name: user.name,
  email: user.email,
  user_id: user.id,
  username: user.username,
});

/** `user_create`. */
export async function userCreated(user: User): Promise<void> {
  await putSystemHookEvent('user_create', { event_name: 'user_create', ...userData(user) });
}

/** `user_destroy`. */
export async function userDestroyed(user: User): Promise<void> {
  await putSystemHookEvent('user_destroy', { event_name: 'user_destroy', ...userData(user) });
}

const groupData = (group: Namespace) => ({
  created_at: systemTime(group.createdAt),
  updated_at: systemTime(group.updatedAt),
  name: group.name,
  path: group.path,
  full_path: group.fullPath,
  group_id: group.id,
});

/** `group_create` (a subgroup too). */
export async function groupCreated(group: Namespace): Promise<void> {
  await putSystemHookEvent('group_create', { event_name: 'group_create', ...groupData(group) });
}

/** `group_destroy` (each group of a deleted tree). */
export async function groupDestroyed(group: Namespace): Promise<void> {
  await putSystemHookEvent('group_destroy', { event_name: 'group_destroy', ...groupData(group) });
}

/** A member added to or removed from a project or group, as the members feature tells it. */
export interface MemberChange {
  source: MemberSource;
  membership: Membership;
  user: User;
}

/**
 * Internal: a member event, with its project's or group's fields read now (one or two reads on the
 * request: delivery may come after the project or group is gone, and GitLab still tells it).
 * Nothing is put when the source is gone already.
 */
async function memberEvent(eventName: 'user_add_to_team' | 'user_remove_from_team' | 'user_add_to_group' | 'user_remove_from_group', change: MemberChange): Promise<void> {
  const { membership, user, source } = change;
  const access = humanAccess(membership.accessLevel);
  const member = { user_username: user.username, user_name: user.name, user_email: '[REDACTED]', user_id: user.id };
  const times = { created_at: systemTime(membership.createdAt), updated_at: systemTime(membership.createdAt) };
  if (source.kind === 'project') {
    const project = await readProjectRecord(source.id);
    const namespace = project && (await readNamespaceRecord(project.namespaceId));
    if (!project || !namespace) return;
    await putSystemHookEvent(eventName, {
      ...times,
      project_name: project.name,
      project_path: project.path,
      project_path_with_namespace: projectFullPath(namespace, project),
      project_id: project.id,
      ...member,
      access_level: access,
      project_visibility: project.visibility,
      event_name: eventName,
    });
    return;
  }
  const group = await readNamespaceRecord(source.id);
  if (!group) return;
  await putSystemHookEvent(eventName, {
    ...times,
    group_name: group.name,
    group_path: group.path,
    group_full_path: group.fullPath,
    group_id: group.id,
    ...member,
    group_access: access,
    event_name: eventName,
  });
}

/** `user_add_to_team` (a project member) or `user_add_to_group`. */
export async function memberAdded(change: MemberChange): Promise<void> {
  await memberEvent(change.source.kind === 'project' ? 'user_add_to_team' : 'user_add_to_group', change);
}

/** `user_remove_from_team` (a project member) or `user_remove_from_group`. */
export async function memberRemoved(change: MemberChange): Promise<void> {
  await memberEvent(change.source.kind === 'project' ? 'user_remove_from_team' : 'user_remove_from_group', change);
}
