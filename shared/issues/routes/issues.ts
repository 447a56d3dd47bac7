/**
 * Project issues: list, read, open, edit (including close/reopen), soft-delete, move to another
 * project; the caller's own issues (`GET /issues`) and a group's (`GET /groups/:id/issues`). Every call must be authenticated (the spec's Authentication 2).
 * Reads need `read_issue` (confidential issues: author, assignee, reporter and above, admins);
 * opening needs `create_issue`, editing `update_issue`, deleting `destroy_issue` (owner, admin).
 */
import * as z from 'zod';
import { authorize, can, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectAndRead, findProjectOrNotFound, projectFullPath } from '../../projects';
import { presentUserPublic } from '../../users';
import type { catalog } from '../catalog';
import { createIssue, deleteIssue, updateIssue } from '../commands/issues';
import { moveIssue } from '../commands/move-issue';
import { presentIssue, presentIssues } from '../presenters/issues';
import { findIssueOrNotFound, groupIssueStream, projectIssueListKeys, projectIssueStream, projectSubjects, userIssueStream } from '../queries/issues';
import { noteableParticipants } from '../queries/participants';
import { issueNoteable } from '../store/issues';
import { createParams, filtersFrom, groupListParams, inputFrom, issuePathParams, moveParams, orderFrom, projectListParams, updateParams, userListParams } from './issues.params';

/** Internal: the `path_with_namespace` of each listed issue's project, from the subjects the list loaded. */
const pathsIn = (subjects: Map<number, ProjectSubject>) => (projectId: number) => {
  const { namespace, project } = subjects.get(projectId)!;
  return projectFullPath(namespace, project);
};

export const issueRoutes = {
  'GET /issues': route({
    params: userListParams,
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, userIssueStream(user, params.scope, await filtersFrom(params), orderFrom(params)));
      const subjects = await projectSubjects(user, [...new Set(page.items.map((issue) => issue.projectId))]);
      return ok(await presentIssues(page.items, pathsIn(subjects)), page.headers);
    },
  }),

  'GET /projects/:id/issues': route({
    params: projectListParams,
    handler: async ({ params, user, link }) => {
      const filters = await filtersFrom(params);
      // The list's counts (for `X-Total`), journal mark and label claims in the project's own read.
      const { subject, read } = await findProjectAndRead(params.id, user, projectIssueListKeys(filters));
      // GitLab's IssuesFinder: no issues for a caller who cannot read them (issues disabled).
      if (!can(user, 'read_issue', subject)) return ok([], paginateArray(params, link, []).headers);
      const page = await paginate(params, link, await projectIssueStream(subject, user, filters, orderFrom(params), read));
      return ok(await presentIssues(page.items, () => projectFullPath(subject.namespace, subject.project)), page.headers);
    },
  }),

  'GET /groups/:id/issues': route({
    params: groupListParams,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const { stream, subjects } = await groupIssueStream(group, user, await filtersFrom(params), orderFrom(params));
      const page = await paginate(params, link, stream);
      return ok(await presentIssues(page.items, pathsIn(subjects), { from: { group: group.fullPath } }), page.headers);
    },
  }),

  'GET /projects/:id/issues/:issue_iid': route({
    params: z.object(issuePathParams),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentIssue(await findIssueOrNotFound(subject, user, params.issue_iid), subject, user));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/participants': route({
    params: z.object({ ...issuePathParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const page = paginateArray(params, link, await noteableParticipants(issueNoteable(issue)));
      return ok(page.items.map(presentUserPublic), page.headers);
    },
  }),

  'POST /projects/:id/issues': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_issue', subject);
      const { issue, held } = await createIssue(subject, user, { ...inputFrom(params), title: params.title });
      // Its author, with no subscription record yet (iids are never reused), is subscribed.
      return created(await presentIssue(issue, subject, user, { subscribed: true, held }));
    },
  }),

  'PUT /projects/:id/issues/:issue_iid': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      // `update_issue` is a per-issue rule: `updateIssue` checks it on the issue it writes.
      return ok(await presentIssue(await updateIssue(subject, user, issue, inputFrom(params)), subject, user));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid': route({
    params: z.object(issuePathParams),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      authorize(user, 'destroy_issue', subject);
      await deleteIssue(subject, user, issue);
      return noContent();
    },
  }),

  'POST /projects/:id/issues/:issue_iid/move': route({
    params: moveParams,
    handler: async ({ params, user }) => {
      const source = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(source, user, params.issue_iid);
      const target = await findProjectOrNotFound(params.to_project_id, user);
      // GitLab answers a move it may not make with 400 (`Issues::MoveService`): checked by `moveIssue`.
      return created(await presentIssue(await moveIssue(source, user, issue, target), target, user));
    },
  }),
} satisfies RoutesOf<typeof catalog.issues>;
