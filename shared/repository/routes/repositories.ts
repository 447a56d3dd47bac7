/**
 * The repositories API (GitLab's `lib/api/repositories.rb`): a directory listing, blobs by id
 * (metadata and raw), comparing two revisions, their merge base, the contributors, and archives (tar, tar.gz,
 * zip; GitLab's bz2 formats are not served). All need `download_code` (anonymous on public
 * projects).
 */
import * as z from 'zod';
import { BadRequestError, NotFoundError, RouteNotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { presentCommit, presentContributor } from '../presenters/commits';
import { presentComparison } from '../presenters/compare';
import { NO_CACHE_HEADERS, rawContent } from '../presenters/files';
import { presentTreeItem } from '../presenters/trees';
import { archiveFormatOf, archivePrefix, buildArchive } from '../queries/archive';
import { listContributors } from '../queries/commits';
import { compareRevisions, findMergeBase } from '../queries/compare';
import { withPatches } from '../queries/diff';
import { findBlobOrNotFound, listTree } from '../queries/files';
import { resolveCommit } from '../queries/revisions';
import { findRepositoryOrNotFound } from './access';
import { guardResponseSize } from './raw';
import { archiveParams, blobParam, compareParams, contributorsParams, mergeBaseParams, treeParams } from './repositories.params';

/** What both blob routes read first (GitLab's `assign_blob_vars!`): the blob, 404 unless readable, 413 when too large to answer. */
async function assignBlob(id: string, sha: string, user: User | null): Promise<{ id: string; content: Buffer }> {
  const { subject, reader } = await findRepositoryOrNotFound(id, user);
  const blob = await findBlobOrNotFound(reader, subject.project, sha);
  guardResponseSize(blob.content.length);
  return blob;
}

/** The formats of `archive(.:format)`, by the resource's last segment. */
const ARCHIVES: Record<string, string | undefined> = {
  archive: undefined,
  'archive.tar.gz': 'tar.gz',
  'archive.tgz': 'tgz',
  'archive.gz': 'gz',
  'archive.tar': 'tar',
  'archive.zip': 'zip',
};

/**
 * `GET …/repository/archive[.format]`: the archive of a revision (the default branch), or of one
 * path of it. One resource serves every format; any other name there is an unknown route.
 */
function archiveRoute() {
  return route({
    anonymous: true,
    params: z.object({ ...idParam, ...archiveParams, archive: required(p.string()) }),
    handler: async ({ params, user }) => {
      if (!Object.hasOwn(ARCHIVES, params.archive)) throw new RouteNotFoundError();
      const extension = ARCHIVES[params.archive];
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const ref = params.sha ?? subject.project.defaultBranch;
      const commit = await resolveCommit(reader, subject.project, ref);
      if (!commit) throw new NotFoundError('File');
      const format = archiveFormatOf(extension);
      const prefix = archivePrefix(subject.project.path, ref, commit.id, params.path);
      const archive = await buildArchive(reader, commit, prefix, format, params.path);
      if (!archive) throw new NotFoundError('File');
      guardResponseSize(archive.length);
      return {
        statusCode: 200,
        binary: { data: archive, contentType: 'application/octet-stream' },
        headers: { 'Content-Disposition': `attachment; filename="${prefix}.${format}"`, 'Content-Transfer-Encoding': 'binary' },
      };
    },
  });
}

export const repositoryRoutes = {
  'GET /projects/:id/repository/tree': route({
    anonymous: true,
    params: z.object({ ...idParam, ...treeParams }),
    handler: async ({ params, user, link }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const items = await listTree(reader, subject.project, params.ref || subject.project.defaultBranch, params.path, params.recursive ?? false);
      if (items === 'no_commit') throw new NotFoundError('Tree');
      if (items === 'no_path') throw new NotFoundError('invalid revision or path');
      if (params.pagination === 'none') return ok(items.map(presentTreeItem));
      if (params.pagination === 'keyset') {
        const start = params.page_token ? items.findIndex((item) => item.id === params.page_token) + 1 : 0;
        const page = items.slice(start, start + params.per_page);
        const headers: Record<string, string> = {};
        if (page.length === params.per_page && start + page.length < items.length) {
          const query = new URLSearchParams();
          const next = { ...link.query, page_token: page[page.length - 1].id, pagination: 'keyset', per_page: String(params.per_page) };
          for (const name of Object.keys(next).sort()) for (const value of [next[name as keyof typeof next]].flat()) query.append(name, value);
          headers.Link = `<${link.url}?${query.toString()}>; rel="next"`;
        }
        return ok(page.map(presentTreeItem), headers);
      }
      const page = paginateArray({ page: params.page, per_page: params.per_page }, link, items);
      return ok(page.items.map(presentTreeItem), page.headers);
    },
  }),

  'GET /projects/:id/repository/blobs/:sha': route({
    anonymous: true,
    params: z.object({ ...idParam, ...blobParam }),
    handler: async ({ params, user }) => {
      const blob = await assignBlob(params.id, params.sha, user);
      return ok({ size: blob.content.length, encoding: 'base64', content: blob.content.toString('base64'), sha: blob.id });
    },
  }),

  'GET /projects/:id/repository/blobs/:sha/raw': route({
    anonymous: true,
    params: z.object({ ...idParam, ...blobParam }),
    handler: async ({ params, user }) => {
      const blob = await assignBlob(params.id, params.sha, user);
      const { contentType, disposition } = rawContent('', blob.content);
      return {
        statusCode: 200,
        binary: { data: blob.content, contentType },
        // A blob read by id has no name: `inline` or `attachment` alone.
        headers: { ...NO_CACHE_HEADERS, 'Content-Disposition': disposition.split(';')[0] },
      };
    },
  }),

  'GET /projects/:id/repository/compare': route({
    anonymous: true,
    params: z.object({ ...idParam, ...compareParams }),
    handler: async ({ params, user }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      if (params.from_project_id !== undefined && params.from_project_id !== subject.project.id) {
        throw new BadRequestError(`Target project id:${params.from_project_id} is not a fork of project id:${params.id}`);
      }
      const comparison = await compareRevisions(reader, subject.project, params.from, params.to, params.straight ?? false);
      if (!comparison) throw new NotFoundError('Ref');
      return ok(presentComparison(comparison, await withPatches(reader, comparison.changes), webUrl, params));
    },
  }),

  'GET /projects/:id/repository/merge_base': route({
    anonymous: true,
    params: z.object({ ...idParam, ...mergeBaseParams }),
    handler: async ({ params, user }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      if (params.refs.length < 2) throw new BadRequestError('Provide at least 2 refs');
      const { unknown, base } = await findMergeBase(reader, subject.project, params.refs);
      if (unknown.length > 0) throw new BadRequestError(`Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
      if (!base) throw new NotFoundError('Merge Base');
      return ok(presentCommit(base, { projectWebUrl: webUrl }));
    },
  }),

  'GET /projects/:id/repository/contributors': route({
    anonymous: true,
    params: z.object({ ...idParam, ...contributorsParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      // GitLab answers a plain 404 for whatever goes wrong (an unknown ref, an empty repository).
      const tip = await resolveCommit(reader, subject.project, params.ref || subject.project.defaultBranch);
      if (!tip) throw new NotFoundError();
      const page = paginateArray(params, link, await listContributors(reader, tip.id, params.order_by ?? 'commits', params.sort ?? 'asc'));
      return ok(page.items.map(presentContributor), page.headers);
    },
  }),

  'GET /projects/:id/repository/:archive': archiveRoute(),
} satisfies RoutesOf<typeof catalog.repository>;
