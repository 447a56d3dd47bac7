/**
 * The commits API (GitLab's `lib/api/commits.rb`): the history of a ref, one commit, its diff, the
 * refs containing it, and a commit made of file actions. Reads need `download_code` (anonymous on
 * public projects); a commit needs a token and the right to push to its branch.
 */
import * as z from 'zod';
import { ForbiddenError, BadRequestError } from '../../platform/http/errors';
import { pageStart, paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { commitFiles } from '../commands/commits';
import { presentBasicRef, presentCommit, presentCommitDetail, presentCommitWithStats } from '../presenters/commits';
import { diffsAsAsked, presentDiff, unidiffParam } from '../presenters/diffs';
import { commitChanges, commitStats, findCommitOrNotFound, listCommits, refsContaining } from '../queries/commits';
import { withPatches } from '../queries/diff';
import { BranchRules } from '../queries/protection';
import { findRepositoryOrNotFound, projectWebUrl } from './access';
import { uncountedPageHeaders } from './paging';
import { commitCreateParams, commitListParams, commitRefsParams, shaParam, startMutuallyExclusive } from './commits.params';

export const commitRoutes = {
  'GET /projects/:id/repository/commits': route({
    anonymous: true,
    params: z.object({ ...idParam, ...commitListParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      if (params.ref_name?.startsWith('-')) throw new BadRequestError('ref_name is invalid');
      const commits = await listCommits(
        reader,
        subject.project,
        {
          refName: params.ref_name,
          all: params.all,
          path: params.path,
          since: params.since,
          until: params.until,
          author: params.author,
          firstParent: params.first_parent,
          order: params.order,
        },
        { offset: pageStart(params), limit: params.per_page },
      );
      const options = { projectWebUrl: webUrl, trailers: params.trailers };
      const body = [];
      for (const commit of commits) {
        body.push(params.with_stats ? presentCommitWithStats(commit, await commitStats(reader, commit), options) : presentCommit(commit, options));
      }
      return ok(body, uncountedPageHeaders(params, link, commits.length));
    },
  }),

  'POST /projects/:id/repository/commits': route({
    params: z.object({ ...idParam, ...commitCreateParams }).superRefine(startMutuallyExclusive),
    handler: async ({ params, user }) => {
      const { subject } = await findRepositoryOrNotFound(params.id, user);
      // GitLab's authorize_push_to_branch!: push rights, and the branch's protection.
      if (!(await BranchRules.load(subject.project.id)).canPush(user, subject, params.branch)) {
        throw new ForbiddenError('You are not allowed to push into this branch');
      }
      const { commit, reader } = await commitFiles(subject, user, {
        branch: params.branch,
        message: params.commit_message,
        startBranch: params.start_branch,
        startSha: params.start_sha,
        authorName: params.author_name,
        authorEmail: params.author_email,
        actions: params.actions,
      });
      const stats = params.stats === false ? undefined : await commitStats(reader, commit);
      return created(presentCommitDetail(commit, subject.project.id, stats, { projectWebUrl: projectWebUrl(subject) }));
    },
  }),

  'GET /projects/:id/repository/commits/:sha': route({
    anonymous: true,
    params: z.object({ ...idParam, ...shaParam, stats: p.bool() }),
    handler: async ({ params, user }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
      const stats = params.stats === false ? undefined : await commitStats(reader, commit);
      return ok(presentCommitDetail(commit, subject.project.id, stats, { projectWebUrl: webUrl }));
    },
  }),

  'GET /projects/:id/repository/commits/:sha/diff': route({
    anonymous: true,
    params: z.object({ ...idParam, ...shaParam, ...paginationParams, ...unidiffParam }),
    handler: async ({ params, user, link }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
      const page = paginateArray(params, link, await commitChanges(reader, commit));
      const diffs = await withPatches(reader, page.items);
      return ok(diffsAsAsked(diffs.map(({ change, patch }) => presentDiff(change, patch)), params), page.headers);
    },
  }),

  'GET /projects/:id/repository/commits/:sha/refs': route({
    anonymous: true,
    params: z.object({ ...idParam, ...shaParam, ...commitRefsParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
      // As GitLab: only as many refs as the page needs, plus one (so X-Total counts at most that).
      const refs = await refsContaining(reader, commit, params.type ?? 'all', params.per_page * params.page + 1);
      const page = paginateArray(params, link, refs);
      return ok(page.items.map(presentBasicRef), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
