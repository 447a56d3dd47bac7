/**
 * The CI/CD job token scope of a project (GitLab's `lib/api/ci/job_token_scope.rb`, inbound
 * direction) and `GET /job` (`lib/api/ci/jobs.rb`: the job of the presented job token).
 *
 * The scope API needs `admin_project` (maintainers), as GitLab's `authorize_admin_project`: a
 * stranger to a private project gets 404, a member short of it 403. The deletes check it after
 * finding their target, with GitLab's message (`403 Forbidden - Insufficient permissions…`).
 * Adding needs the caller to read the target (400 otherwise, GitLab's service message); an
 * unknown target is `404 target_project_id not found Not Found` (GitLab's `not_found!` of that
 * string). Each list holds at most {@link ALLOWLIST_LIMIT} entries; the projects allowlist starts
 * with the project itself, as GitLab's `Ci::JobToken::Allowlist#projects`.
 *
 * An entry has no link back from its target, so deleting a project or a group cannot find the
 * entries naming it (GitLab's scope links go with their target by a foreign key): the lists leave
 * out, and take off the allowlist, the entries whose target is gone (deleted or being deleted),
 * and such an entry can still be deleted by its target's id.
 */
import * as z from 'zod';
import { authorize, can, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound, getNamespace, getNamespaces } from '../../namespaces';
import { config } from '../../platform/config';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, getProject, getProjects } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { presentJob } from '../presenters/jobs';
import { presentBasicProjects } from '../queries/basic-projects';
import { jobContext } from '../queries/jobs';
import { allowlistEntries, deleteAllowlistEntries, deleteAllowlistEntry, getJobTokenScope, insertAllowlistEntry, setInboundScope, type AllowlistTarget } from '../store/job-token-scope';
import { getJob } from '../store/pipelines';

/** GitLab's limits: `ProjectScopeLink::PROJECT_LINK_DIRECTIONAL_LIMIT` and `GroupScopeLink::GROUP_LINK_LIMIT`. */
export const ALLOWLIST_LIMIT = 200;

/** GitLab's `bad_request!(message)`. */
const badRequest = (reason: string) => new BadRequestError(`400 Bad request - ${reason}`);

const INSUFFICIENT = 'Insufficient permissions to modify the job token scope';
const TARGET_PROJECT_UNAUTHORIZED_OR_UNFOUND = "The target_project that you are attempting to access does not exist or you don't have permission to perform this action";
const TARGET_GROUP_UNAUTHORIZED_OR_UNFOUND = "The target_group that you are attempting to access does not exist or you don't have permission to perform this action";

/** What each kind of entry answers when it cannot be added or removed (GitLab's services and validations). */
const MESSAGES = {
  project: {
    taken: 'Target project is already in the job token scope',
    limit: 'Validation failed: Source project exceeds the allowable number of project links in this direction',
    absent: 'Target project is not in the job token scope',
  },
  group: {
    taken: 'Target group is already in the job token scope',
    limit: 'Validation failed: Source project exceeds the allowable number of group links',
    absent: 'Target group is not in the job token scope',
  },
} as const;

/** The project whose scope the caller administers: 404 when they cannot see it, 403 when they can but not administer it. */
async function administered(idOrPath: string, user: User): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_project', subject);
  return subject;
}

/** Whether `user` may read something, from a finder that answers 404 when not. */
async function readable(find: () => Promise<unknown>): Promise<boolean> {
  try {
    await find();
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/** A live group by id (GitLab's `Group.find_by_id`), or undefined. */
async function liveGroup(id: number) {
  const namespace = Number.isSafeInteger(id) && id > 0 ? await getNamespace(id) : undefined;
  return namespace?.kind === 'group' && !namespace.deleting ? namespace : undefined;
}

/** Internal: adds a target, or throws GitLab's error for why it could not be. */
async function addEntry(subject: ProjectSubject, target: AllowlistTarget, user: User): Promise<void> {
  const failure = await insertAllowlistEntry(subject.project.id, target, user.id, ALLOWLIST_LIMIT);
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'taken' || failure === 'limit') throw badRequest(MESSAGES[target.kind][failure]);
}

/** Internal: removes a target once the caller may administer the project (403 with GitLab's message otherwise). */
async function removeEntry(subject: ProjectSubject, target: AllowlistTarget, user: User): Promise<void> {
  if (!can(user, 'admin_project', subject)) throw new ForbiddenError(INSUFFICIENT);
  if (target.kind === 'project' && target.id === subject.project.id) throw badRequest('Source project cannot be removed from the job token scope');
  if ((await deleteAllowlistEntry(subject.project.id, target)) === 'gone') throw badRequest(MESSAGES[target.kind].absent);
}

/**
 * Internal: the ids of the live targets of the project's allowlist entries of one kind, in their
 * order; the entries of targets gone are taken off the list on the way.
 */
async function liveTargets(projectId: number, kind: AllowlistTarget['kind']): Promise<number[]> {
  const ids = (await allowlistEntries(projectId, kind)).map((entry) => entry.target.id);
  const live = new Set(kind === 'project' ? (await getProjects(ids)).map((project) => project.id) : (await getNamespaces(ids)).map((group) => group.id));
  const gone = ids.filter((id) => !live.has(id));
  if (gone.length > 0) await deleteAllowlistEntries(projectId, gone.map((id) => ({ kind, id })));
  return ids.filter((id) => live.has(id));
}

/**
 * Internal: removes the entry of a target that is gone, for a caller who administers the project;
 * false when there is no such entry (or the caller may not), and the route answers as for any unknown target.
 */
async function removeGoneEntry(subject: ProjectSubject, target: AllowlistTarget, user: User): Promise<boolean> {
  return can(user, 'admin_project', subject) && (await deleteAllowlistEntry(subject.project.id, target)) === undefined;
}

const targetProjectParams = z.object({ ...idParam, target_project_id: required(p.int()) });
const targetGroupParams = z.object({ ...idParam, target_group_id: required(p.int()) });

/** `GET /job`: the job of the presented job token; a user's token is `404 Job Not Found` (GitLab's `validate_current_authenticated_job`). */
const currentJob = route({
  params: z.object({}),
  authentication: { jobToken: true },
  handler: async ({ user, auth }) => {
    const job = auth?.job && (await getJob(auth.job.jobId));
    if (!job) throw new NotFoundError('Job');
    const subject = await findProjectOrNotFound(job.projectId, user);
    return ok(presentJob(job, await jobContext(subject, [job])));
  },
});

export const jobTokenScopeRoutes = {
  'GET /job': currentJob,

  'GET /projects/:id/job_token_scope': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await administered(params.id, user);
      const scope = await getJobTokenScope(subject.project.id);
      // Outbound scopes are GitLab's deprecated direction: never enabled here.
      return ok({ inbound_enabled: scope.inboundEnabled, outbound_enabled: false });
    },
  }),

  'PATCH /projects/:id/job_token_scope': route({
    params: z.object({ ...idParam, enabled: required(p.bool()) }),
    handler: async ({ params, user }) => {
      const subject = await administered(params.id, user);
      if ((await setInboundScope(subject.project.id, params.enabled)) === 'project_gone') throw new NotFoundError('Project');
      return noContent();
    },
  }),

  'GET /projects/:id/job_token_scope/allowlist': route({
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await administered(params.id, user);
      const page = paginateArray(params, link, [subject.project.id, ...(await liveTargets(subject.project.id, 'project'))]);
      return ok(await presentBasicProjects(page.items, user), page.headers);
    },
  }),

  'POST /projects/:id/job_token_scope/allowlist': route({
    params: targetProjectParams,
    handler: async ({ params, user }) => {
      const subject = await administered(params.id, user);
      const target = params.target_project_id > 0 ? await getProject(params.target_project_id) : undefined;
      if (!target) throw new NotFoundError('target_project_id not found');
      if (!(await readable(() => findProjectOrNotFound(target.id, user)))) throw badRequest(TARGET_PROJECT_UNAUTHORIZED_OR_UNFOUND);
      if (target.id === subject.project.id) throw badRequest("Validation failed: Target project can't be the same as the source project");
      await addEntry(subject, { kind: 'project', id: target.id }, user);
      return created({ source_project_id: subject.project.id, target_project_id: target.id });
    },
  }),

  'DELETE /projects/:id/job_token_scope/allowlist/:target_project_id': route({
    params: targetProjectParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // The entry of a project deleted since it was added (no project to find any more).
      const gone = params.target_project_id > 0 && !(await getProject(params.target_project_id));
      if (gone && (await removeGoneEntry(subject, { kind: 'project', id: params.target_project_id }, user))) return noContent();
      const target = await findProjectOrNotFound(params.target_project_id, user);
      await removeEntry(subject, { kind: 'project', id: target.project.id }, user);
      return noContent();
    },
  }),

  'GET /projects/:id/job_token_scope/groups_allowlist': route({
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await administered(params.id, user);
      const page = paginateArray(params, link, await liveTargets(subject.project.id, 'group'));
      const groups = new Map((await getNamespaces(page.items)).map((group) => [group.id, group]));
      const shown = page.items.flatMap((id) => {
        const group = groups.get(id);
        return group ? [{ id: group.id, web_url: `${config().externalUrl}/groups/${group.fullPath}`, name: group.name }] : [];
      });
      return ok(shown, page.headers);
    },
  }),

  'POST /projects/:id/job_token_scope/groups_allowlist': route({
    params: targetGroupParams,
    handler: async ({ params, user }) => {
      const subject = await administered(params.id, user);
      const group = await liveGroup(params.target_group_id);
      if (!group) throw new NotFoundError('target_group_id not found');
      if (!(await readable(() => findGroupOrNotFound(group.id, user)))) throw badRequest(TARGET_GROUP_UNAUTHORIZED_OR_UNFOUND);
      await addEntry(subject, { kind: 'group', id: group.id }, user);
      return created({ source_project_id: subject.project.id, target_group_id: group.id });
    },
  }),

  'DELETE /projects/:id/job_token_scope/groups_allowlist/:target_group_id': route({
    params: targetGroupParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const group = await liveGroup(params.target_group_id);
      if (!group) {
        // The entry of a group deleted since it was added.
        if (params.target_group_id > 0 && (await removeGoneEntry(subject, { kind: 'group', id: params.target_group_id }, user))) return noContent();
        throw new NotFoundError('target_group_id not found');
      }
      await removeEntry(subject, { kind: 'group', id: group.id }, user);
      return noContent();
    },
  }),
} satisfies Partial<RoutesOf<typeof catalog.ci_jobs>>;
