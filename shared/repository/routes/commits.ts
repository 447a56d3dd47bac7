/**
 * The commits API (GitLab's `lib/api/commits.rb`): the history of a ref, one commit, its diff, the
 * refs containing it, and a commit made of file actions. Reads need `download_code` (anonymous on
 * public projects); a commit needs a token and the right to push to its branch.
 */
import * as z from 'zod';
import type { ProjectSubject } from '../../auth';
import { ApiError, ForbiddenError, BadRequestError, NotFoundError } from '../../platform/http/errors';
import { pageStart, paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { created, ok, type HttpResult } from '../../platform/http/response';
import { lazily } from '../../platform/lazy';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { commitFiles } from '../commands/commits';
import { changeCommit, type CommitChange } from '../commands/pick';
import { countReachableCommits } from '../git/walk';
import { presentBasicRef, presentCommit, presentCommitDetail, presentCommitWithStats } from '../presenters/commits';
import { presentCommitSignature } from '../presenters/signatures';
import { diffsAsAsked, presentDiff, unidiffParam } from '../presenters/diffs';
import { findBranchOrNotFound } from '../queries/branches';
import { commitChanges, commitStats, findCommitOrNotFound, listCommits, refsContaining } from '../queries/commits';
import type { ObjectReader } from '../queries/objects';
import { withPatches } from '../queries/diff';
import { BranchRules } from '../queries/protection';
import { findRepositoryOrNotFound, projectWebUrl } from './access';
import { uncountedPageHeaders } from './paging';
import { commitChangeParams, commitCreateParams, commitListParams, commitRefsParams, shaParam, startMutuallyExclusive } from './commits.params';

/** A commit's signature; its verifier (sshpk and its crypto, about 190 KB) loads with the first request for one, not with the function. */
const commitSignature = lazily(() => import('../queries/signatures'), (m) => m.commitSignature);

/** GitLab's `authorize_push_to_branch!`: push rights, and the branch's protection (403). */
async function authorizePushToBranch(subject: ProjectSubject, user: User, branch: string): Promise<void> {
  if (!(await BranchRules.load(subject.project.id)).canPush(user, subject, branch)) {
    throw new ForbiddenError('You are not allowed to push into this branch');
  }
}

/** The first words of GitLab's answer when a change does not apply (`Commits::ChangeService`). */
const CHANGE_FAILED: Record<CommitChange, string> = { cherry_pick: 'Commit cherry-pick failed', revert: 'Commit revert failed' };

/**
 * `POST …/commits/:sha/cherry_pick` and `…/revert`: 201 with the new commit, 200
 * `{"dry_run":"success"}` for a dry run, or 400 with GitLab's message and error code (and
 * `"dry_run":"error"`).
 */
async function commitChangeRoute(
  change: CommitChange,
  params: { id: string; sha: string; branch: string; dry_run?: boolean; message?: string },
  user: User,
): Promise<HttpResult<ReturnType<typeof presentCommit> | { dry_run: 'success' }>> {
  const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
  await authorizePushToBranch(subject, user, params.branch);
  const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
  const branch = await findBranchOrNotFound(reader, params.branch);
  const outcome = await changeCommit(subject, user, reader, {
    change,
    commit,
    branch: params.branch,
    tip: branch.oid,
    message: params.message,
    dryRun: params.dry_run,
  });
  const dryRun = params.dry_run ? { dry_run: 'error' } : {};
  if ('error' in outcome) {
    const detail = "Can't perform this action automatically. It may have already been done, or a more recent commit may have updated some of this content. Please perform this action locally.";
    throw new ApiError(400, { message: `${CHANGE_FAILED[change]}: ${detail}`, error_code: outcome.error, ...dryRun });
  }
  if ('refused' in outcome) throw new ApiError(400, { message: outcome.refused, ...dryRun });
  if (!outcome.commit) return ok({ dry_run: 'success' as const });
  return created(presentCommit(outcome.commit, { projectWebUrl: webUrl }));
}

/** `git rev-list --count [--first-parent] <commit>`. */
async function commitSequence(reader: ObjectReader, tip: string, firstParent: boolean): Promise<number> {
  if (!firstParent) return countReachableCommits(reader.read, tip);
  let count = 0;
  for (let oid: string | undefined = tip; oid !== undefined; oid = (await reader.commitLinks(oid))?.parents[0]) count++;
  return count;
}

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
      await authorizePushToBranch(subject, user, params.branch);
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

  'GET /projects/:id/repository/commits/:sha/sequence': route({
    anonymous: true,
    params: z.object({ ...idParam, ...shaParam, first_parent: p.bool() }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
      return ok({ count: await commitSequence(reader, commit.id, params.first_parent ?? false) });
    },
  }),

  /**
   * GitLab's `GET …/commits/:sha/signature`: 404 `Signature Not Found` for a commit without a
   * signature it recognizes.
   */
  'GET /projects/:id/repository/commits/:sha/signature': route({
    anonymous: true,
    params: z.object({ ...idParam, ...shaParam }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const commit = await findCommitOrNotFound(reader, subject.project, params.sha);
      const signature = await commitSignature(reader, commit);
      if (!signature) throw new NotFoundError('Signature');
      return ok(presentCommitSignature(signature));
    },
  }),

  'POST /projects/:id/repository/commits/:sha/cherry_pick': route({
    params: z.object({ ...idParam, ...shaParam, ...commitChangeParams, message: p.string() }),
    handler: ({ params, user }) => commitChangeRoute('cherry_pick', params, user),
  }),

  'POST /projects/:id/repository/commits/:sha/revert': route({
    params: z.object({ ...idParam, ...shaParam, ...commitChangeParams }),
    handler: ({ params, user }) => commitChangeRoute('revert', params, user),
  }),
} satisfies RoutesOf<typeof catalog.repository>;
