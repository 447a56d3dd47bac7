/**
 * Merge requests: list (a project's, a group's, the caller's), read, open, edit (close, reopen),
 * soft-delete, their reviewers and participants, commits, changes (and their paginated `diffs`) and diff
 * versions, the issues they close and relate to, merge and cancel a deferred merge, rebase. Reads of a
 * public project's merge requests (and the issues they close or relate to) need no token; the rest do.
 * Reads need `read_merge_request` (guests of a private project: 404); opening needs
 * `create_merge_request_from` on the source project (and reading the target), editing the
 * per-merge-request `update_merge_request`, deleting `destroy_merge_request` (owner, admin).
 */
import { authorize, can, type ProjectSubject } from '../../auth';
import * as z from 'zod';
import { findGroupOrNotFound } from '../../namespaces';
import { presentPipeline } from '../../ci';
import { ApiError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { accepted, created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, projectFullPath, webUrlOf } from '../../projects';
import { diffsAsAsked, ObjectReader, openRepository, rawDiff, unidiffParam } from '../../repository';
import { presentUserPublic } from '../../users';
import type { catalog } from '../catalog';
import { closingIssues } from '../commands/closing';
import { acceptMergeRequest, cancelMergeWhenPipelineSucceeds } from '../commands/merge';
import { rebaseInProgress, requestRebase } from '../commands/rebase';
import { withMergeStatus } from '../commands/merge-status';
import { MergeRequestError } from '../commands/shared';
import { createMergeRequest, deleteMergeRequest, updateMergeRequest } from '../commands/merge-requests';
import { createPipelineForMergeRequest, createPipelineForMergeRequestUntold } from '../commands/merge-request-pipelines';
import { listNotes, mergeRequestNoteable, noteableParticipants, presentIssues } from '../issuables';

import { presentMergeRequest, presentMergeRequestPipelines, presentMergeRequests, presentReviewers } from '../presenters/merge-requests';
import { presentVersion, presentVersionFull } from '../presenters/versions';
import { divergedCommitsCount, findMergeRequestOrNotFound, groupMergeRequestStream, mergeRequestPipelines, memberMergeRequestStream, projectMergeRequestStream, projectSubjects, userMergeRequestStream } from '../queries/merge-requests';
import { relatedIssues } from '../queries/related';
import type { MergeRequest } from '../store/merge-requests';
import { getVersion, listVersions, versionContent } from '../store/versions';
import {
  createParams,
  filtersFrom,
  groupListParams,
  inputFrom,
  mergeParams,
  mergeRequestPathParams,
  orderFrom,
  projectListParams,
  rebaseParams,
  showParams,
  updateParams,
  userListParams,
} from './merge-requests.params';
import { findMergeRequestOf } from './find';

const pathOf = (subject: ProjectSubject) => projectFullPath(subject.namespace, subject.project);
const pathsIn = (subjects: Map<number, ProjectSubject>) => (projectId: number) => pathOf(subjects.get(projectId)!);
const byMergeRequest = z.object(mergeRequestPathParams);

/** Internal: the latest version and its content (commits, diffs). */
/** The most a raw diff answers: its base64 encoding stays within Lambda's 6 MB response payload. */
const RAW_DIFF_MAX_BYTES = 4 * 1024 * 1024;

async function latestContent(mr: MergeRequest) {
  const version = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
  return version ? versionContent(version) : { commits: [], diffs: [] };
}

export const mergeRequestRoutes = {
  'GET /merge_requests': route({
    params: userListParams,
    handler: async ({ params, user, link }) => {
      const filters = await filtersFrom({ ...params, scope: undefined }, user.id);
      const reviewer = filters.reviewerId;
      // `scope=all` with a reviewer reads that reviewer's index: every project the caller may read.
      const stream =
        params.scope === 'all' && typeof reviewer === 'number'
          ? userMergeRequestStream(user, { reviewer }, filters, orderFrom(params))
          : params.scope === 'all'
            ? await memberMergeRequestStream(user, filters, orderFrom(params))
            : userMergeRequestStream(user, params.scope === 'assigned_to_me' ? 'assigned_to_me' : 'created_by_me', filters, orderFrom(params));
      const page = await paginate(params, link, stream);
      const subjects = await projectSubjects(user, [...new Set(page.items.map((mr) => mr.projectId))]);
      return ok(await presentMergeRequests(page.items, pathsIn(subjects)), page.headers);
    },
  }),

  'GET /groups/:id/merge_requests': route({
    params: groupListParams,
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const { stream, subjects } = await groupMergeRequestStream(group, user, await filtersFrom(params, user?.id), orderFrom(params));
      const page = await paginate(params, link, stream);
      return ok(await presentMergeRequests(page.items, pathsIn(subjects), { from: { group: group.fullPath } }), page.headers);
    },
  }),

  'GET /projects/:id/merge_requests': route({
    params: projectListParams,
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      if (!can(user, 'read_merge_request', subject)) throw new NotFoundError('Project');
      const page = await paginate(params, link, await projectMergeRequestStream(subject, await filtersFrom(params, user?.id), orderFrom(params)));
      return ok(await presentMergeRequests(page.items, () => pathOf(subject)), page.headers);
    },
  }),

  'POST /projects/:id/merge_requests': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const source = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_merge_request_from', source);
      let target = source;
      if (params.target_project_id !== undefined && params.target_project_id !== source.project.id) {
        // A fork's merge request targets its upstream only (GitLab's `validate_fork`).
        if (source.project.forkedFromId !== params.target_project_id) {
          throw new MergeRequestError(422, ['Source project is not a fork of the target project']);
        }
        target = await findProjectOrNotFound(params.target_project_id, user);
      }
      authorize(user, 'create_merge_request_in', target);
      const mr = await createMergeRequest(source, target, user, {
        ...inputFrom(params),
        title: params.title,
        sourceBranch: params.source_branch,
        targetBranch: params.target_branch,
      });
      return created(await presentMergeRequest(mr, target, user));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid': route({
    params: showParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const [checked, diverged] = await Promise.all([
        withMergeStatus(subject, mr),
        params.include_diverged_commits_count ? divergedCommitsCount(subject.project, mr) : undefined,
      ]);
      const rebase = params.include_rebase_in_progress ? rebaseInProgress(mr) : undefined;
      return ok(await presentMergeRequest(checked, subject, user, { rebaseInProgress: rebase, divergedCommitsCount: diverged }));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      // `update_merge_request` is a per-merge-request rule: `updateMergeRequest` checks it.
      return ok(await presentMergeRequest(await updateMergeRequest(subject, user, mr, inputFrom(params)), subject, user));
    },
  }),

  'DELETE /projects/:id/merge_requests/:merge_request_iid': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      authorize(user, 'destroy_merge_request', subject);
      await deleteMergeRequest(subject, user, mr);
      return noContent();
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/reviewers': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, await presentReviewers(mr));
      return ok(page.items, page.headers);
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/participants': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, await noteableParticipants(mergeRequestNoteable(mr)));
      return ok(page.items.map(presentUserPublic), page.headers);
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/commits': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, (await latestContent(mr)).commits);
      return ok(page.items, page.headers);
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/changes': route({
    params: z.object({ ...mergeRequestPathParams, ...unidiffParam }),
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const [body, version] = await Promise.all([presentMergeRequest(await withMergeStatus(subject, mr), subject, user), getVersion(mr.projectId, mr.iid, mr.latestVersionId)]);
      const content = version ? await versionContent(version) : { commits: [], diffs: [] };
      return ok({ ...body, changes: diffsAsAsked(content.diffs, params), overflow: version?.overflow ?? false });
    },
  }),

  // GitLab 15.7's replacement of `changes`: the latest version's diffs, a page at a time.
  'GET /projects/:id/merge_requests/:merge_request_iid/diffs': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams, ...unidiffParam }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, (await latestContent(mr)).diffs);
      return ok(diffsAsAsked(page.items, params), page.headers);
    },
  }),

  // GitLab 17.9: the latest version's changes as `git diff --full-index <base> <head>` prints them,
  // in plain text (Workhorse's `send_git_diff`). Capped below Lambda's response payload (413 past it).
  'GET /projects/:id/merge_requests/:merge_request_iid/raw_diffs': route({
    params: z.object(mergeRequestPathParams),
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const version = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
      const text = version ? await rawDiff(new ObjectReader(await openRepository(subject.project)), version.baseCommitSha, version.headCommitSha, { maxBytes: RAW_DIFF_MAX_BYTES }) : undefined;
      if (text === 'too_large') throw new ApiError(413, { message: '413 Response Too Large' });
      return { statusCode: 200, binary: { data: text ?? Buffer.alloc(0), contentType: 'text/plain; charset=utf-8' } };
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/versions': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, (await listVersions(mr.projectId, mr.iid)).map(presentVersion));
      return ok(page.items, page.headers);
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/versions/:version_id': route({
    params: z.object({ ...mergeRequestPathParams, version_id: required(p.int()), ...unidiffParam }),
    anonymous: true,
    handler: async ({ params, user }) => {
      const { mr } = await findMergeRequestOf(params, user);
      const version = await getVersion(mr.projectId, mr.iid, params.version_id);
      if (!version) throw new NotFoundError('Merge Request Diff');
      const content = await versionContent(version);
      return ok(presentVersionFull(version, { ...content, diffs: diffsAsAsked(content.diffs, params) }));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/closes_issues': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const content = await latestContent(mr);
      const closes = await closingIssues(mr, subject, user, [mr.title, mr.description ?? '', ...content.commits.map((commit) => commit.message)]);
      const page = paginateArray(params, link, closes);
      const paths = new Map(page.items.map(({ subject: s }) => [s.project.id, pathOf(s)] as const));
      return ok(await presentIssues(page.items.map(({ issue }) => issue), (projectId) => paths.get(projectId)!, { from: { project: pathOf(subject) } }), page.headers);
    },
  }),

  // As `closes_issues`: the issues are resolved as the caller (anonymous on a public project) may read them.
  'GET /projects/:id/merge_requests/:merge_request_iid/related_issues': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const [content, notes] = await Promise.all([latestContent(mr), listNotes(mergeRequestNoteable(mr))]);
      const texts = [mr.title, mr.description ?? '', ...content.commits.map((commit) => commit.message), ...notes.filter((note) => !note.system).map((note) => note.body)];
      const page = paginateArray(params, link, await relatedIssues(subject, user, texts));
      const paths = new Map(page.items.map(({ subject: s }) => [s.project.id, pathOf(s)] as const));
      return ok(await presentIssues(page.items.map(({ issue }) => issue), (projectId) => paths.get(projectId)!, { from: { project: pathOf(subject) } }), page.headers);
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/merge': route({
    params: mergeParams,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const merged = await acceptMergeRequest(subject, user, mr, {
        commitMessage: params.merge_commit_message,
        shouldRemoveSourceBranch: params.should_remove_source_branch,
        mergeWhenPipelineSucceeds: params.merge_when_pipeline_succeeds,
        sha: params.sha,
      });
      return ok(await presentMergeRequest(merged, subject, user));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/rebase': route({
    params: rebaseParams,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      const requested = await requestRebase(subject, user, mr, { skipCi: params.skip_ci ?? false });
      return accepted({ rebase_in_progress: rebaseInProgress(requested) });
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      return ok(await presentMergeRequest(await cancelMergeWhenPipelineSucceeds(subject, user, mr), subject, user));
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      // GitLab's route is a POST; the PUT above is what older clients send.
      return created(await presentMergeRequest(await cancelMergeWhenPipelineSucceeds(subject, user, mr), subject, user));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/pipelines': route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      // GitLab's `authorize! :read_pipeline`.
      if (!can(user, 'read_build', subject)) throw user ? new ForbiddenError() : new UnauthorizedError();
      const page = paginateArray(params, link, await mergeRequestPipelines(mr, user, subject));
      return ok(await presentMergeRequestPipelines(page.items, subject), page.headers);
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/pipelines': route({
    params: z.object({ ...mergeRequestPathParams, async: p.bool() }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // GitLab's `authorize! :create_pipeline` on the project, then the merge request (404).
      if (!can(user, 'update_build', subject)) throw new ForbiddenError();
      const mr = await findMergeRequestOrNotFound(subject, user, params.merge_request_iid);
      // `async`: GitLab answers 202 (`status :accepted`, whose value Grape renders as the body) and
      // creates it in a worker, not telling the caller why none was made; here it is made before
      // the answer, a failure only logged.
      if (params.async) {
        await createPipelineForMergeRequestUntold(subject, user, mr);
        return accepted<ReturnType<typeof presentPipeline> | 202>(202);
      }
      const result = await createPipelineForMergeRequest(subject, user, mr, { refuse: true });
      // No pipeline for a reason of the merge request (its project without CI, a fork gone): GitLab's `not_allowed!`.
      if (result.result !== 'created') throw new ApiError(405, { message: '405 Method Not Allowed' });
      return ok(presentPipeline(result.pipeline, webUrlOf(projectFullPath(subject.namespace, subject.project)), user));
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
