/**
 * The parameters of the package routes, as GitLab's Grape declarations check them
 * (`lib/api/generic_packages.rb`, `lib/api/project_packages.rb`, `lib/api/package_files.rb`): a
 * generic package's name and file name match `Gitlab::Regex.generic_package_name_regex`
 * (`[A-Za-z0-9._+-]+`) and are file paths (`..` is `should be a valid file path`), its version
 * `generic_package_version_regex` (word characters, `+`, `.`, `-`, no `..`); each is
 * `<name> is invalid` otherwise. Lists take GitLab's orders and filters.
 */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { PACKAGE_STATUSES, PACKAGE_TYPES } from '../store/packages';

type Issues = z.core.$RefinementCtx;

/** GitLab's `maven_file_name_regex`, which generic package and file names use. */
const NAME = /^[A-Za-z0-9._+-]+$/;
/** GitLab's `maven_version_regex` (Ruby's `\w` is ASCII). */
const VERSION = /^(?!.*\.\.)[A-Za-z0-9_+.-]+$/;
/** The longest name, version or file name kept (GitLab's columns hold 255 characters). */
const MAX_LENGTH = 255;

/** A path segment matching `pattern` (and, for `filePath`, no traversal: Grape's `file_path` validator). */
function segment(name: string, pattern: RegExp, filePath: boolean) {
  return required(p.string()).superRefine((value: string, ctx: Issues) => {
    if (!pattern.test(value) || value.length > MAX_LENGTH) ctx.addIssue({ code: 'custom', message: `${name} is invalid` });
    else if (filePath && value === '..') ctx.addIssue({ code: 'custom', message: `${name} should be a valid file path` });
  });
}

export const genericFileParams = z.object({
  ...idParam,
  package_name: segment('package_name', NAME, true),
  package_version: segment('package_version', VERSION, false),
  file_name: segment('file_name', NAME, true),
});

export const genericUploadParams = genericFileParams.extend({
  status: p.oneOf(['default', 'hidden']),
  select: p.oneOf(['package_file']),
});

export const packageListParams = z.object({
  ...idParam,
  ...paginationParams,
  order_by: p.oneOf(['created_at', 'name', 'version', 'type']).transform((value) => value ?? 'created_at'),
  sort: p.oneOf(['asc', 'desc']).transform((value) => value ?? 'asc'),
  package_type: p.oneOf(PACKAGE_TYPES),
  package_name: p.string(),
  package_version: p.string(),
  include_versionless: p.bool(),
  status: p.oneOf(PACKAGE_STATUSES),
});

export const groupPackageListParams = packageListParams.extend({
  order_by: p.oneOf(['created_at', 'name', 'version', 'type', 'project_path']).transform((value) => value ?? 'created_at'),
  exclude_subgroups: p.bool(),
});

export const packageParams = z.object({ ...idParam, package_id: required(p.int()) });

export const packageFilesParams = packageParams.extend({
  ...paginationParams,
  order_by: p.oneOf(['id', 'file_name', 'created_at']).transform((value) => value ?? 'id'),
  sort: p.oneOf(['asc', 'desc']).transform((value) => value ?? 'asc'),
});

export const packageFileParams = packageParams.extend({ package_file_id: required(p.int()) });
