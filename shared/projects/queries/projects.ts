/**
 * Reads of one project: the users with access to it (`GET /projects/:id/users`) and its feed
 * (`GET /projects/:id/events`).
 */
import { isMembershipActive, type ProjectSubject } from '../../auth';
import type { User } from '../../users';
import type { Caller } from '../../platform/http/context';
import type { CollectionSource } from '../../platform/http/pagination';
import { canReadEvent } from '../policy';
import { eventFromItem, type ContributionEvent } from '../store/events';
import { projectCollections } from '../store/keys';
import { getUsersById, membersOf } from '../store/lookups';

/**
 * The users with access to a project, by id: its active members, those of its group and the
 * group's ancestors, the owner of a personal namespace; `search` matches username or name.
 */
export async function projectUsers({ project, namespace }: ProjectSubject, search: string | undefined): Promise<User[]> {
  const groups = namespace.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : [];
  const members = (
    await Promise.all([membersOf({ kind: 'project', id: project.id }), ...groups.map((id) => membersOf({ kind: 'group', id }))])
  ).flat();
  const today = new Date().toISOString().slice(0, 10);
  const userIds = new Set(members.filter((m) => isMembershipActive(m, today)).map((m) => Number(m.userId)));
  if (namespace.kind === 'user' && namespace.ownerId !== null) userIds.add(namespace.ownerId);
  const query = search?.toLowerCase();
  return (await getUsersById([...userIds]))
    .filter((u) => !u.deleting && (!query || u.username.toLowerCase().includes(query) || u.name.toLowerCase().includes(query)))
    .sort((a, b) => a.id - b.id);
}

/** A project's feed, newest first, to page: events of confidential issues only for those who may read the issue. */
export function projectFeed(subject: ProjectSubject, viewer: Caller | null, ascending = false): CollectionSource<ContributionEvent> {
  return {
    collection: projectCollections.projectEvents(subject.project.id),
    ascending,
    select: (item) => {
      const event = eventFromItem(item);
      return canReadEvent(viewer, subject, event) ? event : undefined;
    },
  };
}
