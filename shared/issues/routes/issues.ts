/**
 * Project issues: list, read, open, edit (including close/reopen), soft-delete, move to another
 * project; the caller's own issues (`GET /issues`) and a group's (`GET /groups/:id/issues`). Every call must be authenticated (the spec's Authentication 2).
 * Reads need `read_issue` (confidential issues: author, assignee, reporter and above, admins);
 * opening needs `create_issue`, editing `update_issue`, deleting `destroy_issue` (owner, admin).
 */
import { z } from 'zod';
import { type ProjectSubject, can } from '../../auth';
import type { Issue } from '../store/issues';
import type { User } from '../../users';
import { findGroupOrNotFound } from '../../groups';
import { findProjectOrNotFound } from '../../projects';
import { createIssue, deleteIssue, findIssueOrNotFound, groupIssueStream, moveIssue, projectIssueStream, projectSubjects, updateIssue, userIssueStream } from '../issues';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentIssues } from '../presenters/issues';
import { createParams, filtersFrom, groupListParams, orderFrom, inputFrom, issueIidParam, moveParams, projectIdParam, projectListParams, updateParams, userListParams } from './issue-params';
import type { catalog } from '../catalog';

const pathOf = (subject: ProjectSubject) => `${subject.namespace.fullPath}/${subject.project.path}`;

/** Internal: one issue as a single-issue response (with `subscribed` for `viewer`). */
async function presentOne(issue: Issue, subject: ProjectSubject, viewer: User | null) {
  const [body] = await presentIssues([issue], () => pathOf(subject), { single: true, viewer });
  return body;
}

export const issueRoutes = {
  'GET /issues': route({
    params: userListParams,
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, userIssueStream(user, params.scope, filtersFrom(params), orderFrom(params)));
      const subjects = await projectSubjects(user, [...new Set(page.items.map((issue) => issue.projectId))]);
      const body = await presentIssues(page.items, (projectId) => pathOf(subjects.get(projectId)!));
      return ok(body, page.headers);
    },
  }),

  'GET /projects/:id/issues': route({
    params: projectListParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // GitLab's IssuesFinder: no issues for a caller who cannot read them (issues disabled).
      if (!can(user, 'read_issue', subject)) return ok([], paginateArray(params, link, []).headers);
      const page = await paginate(params, link, await projectIssueStream(subject, user, filtersFrom(params), orderFrom(params)));
      return ok(await presentIssues(page.items, () => pathOf(subject)), page.headers);
    },
  }),

  'GET /groups/:id/issues': route({
    params: groupListParams,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const { stream, subjects } = await groupIssueStream(group, user, filtersFrom(params), orderFrom(params));
      const page = await paginate(params, link, stream);
      return ok(await presentIssues(page.items, (projectId) => pathOf(subjects.get(projectId)!)), page.headers);
    },
  }),

  'GET /projects/:id/issues/:issue_iid': route({
    params: z.object({ ...projectIdParam, ...issueIidParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentOne(await findIssueOrNotFound(subject, user, params.issue_iid), subject, user));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/closed_by': route({
    params: z.object({ ...projectIdParam, ...issueIidParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      await findIssueOrNotFound(subject, user, params.issue_iid);
      // Merge requests that close the issue: none can exist until merge requests arrive.
      const page = paginateArray(params, link, []);
      return ok(page.items, page.headers);
    },
  }),

  'POST /projects/:id/issues': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await createIssue(subject, user, { ...inputFrom(params), title: params.title });
      return created(await presentOne(issue, subject, user));
    },
  }),

  'PUT /projects/:id/issues/:issue_iid': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentOne(await updateIssue(subject, user, params.issue_iid, inputFrom(params)), subject, user));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid': route({
    params: z.object({ ...projectIdParam, ...issueIidParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      await deleteIssue(subject, user, params.issue_iid);
      return noContent();
    },
  }),

  'POST /projects/:id/issues/:issue_iid/move': route({
    params: moveParams,
    handler: async ({ params, user }) => {
      const source = await findProjectOrNotFound(params.id, user);
      await findIssueOrNotFound(source, user, params.issue_iid);
      const target = await findProjectOrNotFound(params.to_project_id, user);
      const moved = await moveIssue(source, user, params.issue_iid, target);
      return created(await presentOne(moved, target, user));
    },
  }),
} satisfies RoutesOf<typeof catalog.issues>;
