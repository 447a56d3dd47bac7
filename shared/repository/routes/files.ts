/**
 * The repository files API (GitLab's `lib/api/files.rb`): a file's content and metadata at a ref
 * (also as `X-Gitlab-*` headers, which `HEAD` answers alone), its raw content, and one-file commits
 * that create, update or delete it. Reads need `download_code` (anonymous on public projects);
 * writes need `push_code`, and the branch's protection is checked as the commit is made (400).
 */
import * as z from 'zod';
import { BadRequestError } from '../../platform/http/errors';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createFile, deleteFile, updateFile, type FileWrite } from '../commands/files';
import { NO_CACHE_HEADERS, fileHeaders, presentBlameRange, presentFile, presentFileData, rawContent } from '../presenters/files';
import { blameFile } from '../queries/blame';
import { findFileOrNotFound, lastCommitIdOf } from '../queries/files';
import { findRepositoryOrNotFound } from './access';
import { blameRangeParam, fileDeleteParams, filePathParam, fileWriteParams } from './files.params';
import { guardResponseSize } from './raw';

type WriteParams = { file_path: string; branch: string; start_branch?: string; commit_message: string; author_name?: string; author_email?: string; last_commit_id?: string };

const writeOf = (params: WriteParams & { content?: string; encoding?: 'text' | 'base64'; execute_filemode?: boolean }): FileWrite => ({
  filePath: params.file_path,
  branch: params.branch,
  startBranch: params.start_branch,
  message: params.commit_message,
  authorName: params.author_name,
  authorEmail: params.author_email,
  content: params.content,
  encoding: params.encoding,
  lastCommitId: params.last_commit_id,
  executeFilemode: params.execute_filemode,
});

export const fileRoutes = {
  'GET /projects/:id/repository/files/:file_path': route({
    anonymous: true,
    params: z.object({ ...idParam, ...filePathParam, ref: required(p.string()) }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const file = await findFileOrNotFound(reader, subject.project, params.ref, params.file_path);
      guardResponseSize(file.content.length);
      const body = presentFile(file, params.ref, await lastCommitIdOf(reader, file));
      return ok(body, fileHeaders(body));
    },
  }),

  'GET /projects/:id/repository/files/:file_path/blame': route({
    anonymous: true,
    params: z.object({ ...idParam, ...filePathParam, ref: required(p.string()), ...blameRangeParam }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      if (params.range && params.range.start > params.range.end) throw new BadRequestError('range[start] must be less than or equal to range[end]');
      const file = await findFileOrNotFound(reader, subject.project, params.ref, params.file_path);
      const ranges = await blameFile(reader, file.commit, file.path, params.range);
      return ok(ranges.map(presentBlameRange), fileHeaders(presentFileData(file, params.ref, await lastCommitIdOf(reader, file))));
    },
  }),

  'GET /projects/:id/repository/files/:file_path/raw': route({
    anonymous: true,
    params: z.object({ ...idParam, ...filePathParam, ref: p.string(), lfs: p.bool() }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      const ref = params.ref ?? subject.project.defaultBranch;
      const file = await findFileOrNotFound(reader, subject.project, ref, params.file_path);
      guardResponseSize(file.content.length);
      const { contentType, disposition } = rawContent(file.name, file.content);
      return {
        statusCode: 200,
        binary: { data: file.content, contentType },
        headers: { ...NO_CACHE_HEADERS, ...fileHeaders(presentFileData(file, ref, await lastCommitIdOf(reader, file))), 'Content-Disposition': disposition },
      };
    },
  }),

  'POST /projects/:id/repository/files/:file_path': route({
    params: z.object({ ...idParam, ...filePathParam, ...fileWriteParams }),
    handler: async ({ params, user }) => {
      const { subject } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      await createFile(subject, user, writeOf(params));
      return created({ file_path: params.file_path, branch: params.branch });
    },
  }),

  'PUT /projects/:id/repository/files/:file_path': route({
    params: z.object({ ...idParam, ...filePathParam, ...fileWriteParams }),
    handler: async ({ params, user }) => {
      const { subject } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      await updateFile(subject, user, writeOf(params));
      return ok({ file_path: params.file_path, branch: params.branch });
    },
  }),

  'DELETE /projects/:id/repository/files/:file_path': route({
    params: z.object({ ...idParam, ...filePathParam, ...fileDeleteParams }),
    handler: async ({ params, user }) => {
      const { subject } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      await deleteFile(subject, user, writeOf(params));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
