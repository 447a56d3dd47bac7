/**
 * GitLab's package entities (`lib/api/entities/package.rb`, `package_version.rb`,
 * `package_file.rb`), and the package file record a generic upload answers with
 * `select=package_file` (GitLab presents the model itself there). Tags and pipelines are not kept
 * here: `tags` is always empty and `pipeline`/`pipelines` are left out (README).
 */
import { config } from '../../platform/config';
import type { Package, PackageFile } from '../store/packages';

/** What the caller may do and where the package lives, as the entity's conditions read them. */
export interface PackageContext {
  /** The project's full path (`namespace/project`), for `_links.web_path`. */
  projectPath: string;
  /** Whether the caller may delete it (`delete_api_path` is shown only then). */
  canDestroy: boolean;
  /** Group lists add the project's id and path. */
  group?: boolean;
}

/** `API::Entities::PackageVersion`: another version of a package's name. */
export function presentPackageVersion(pkg: Package) {
  return { id: pkg.id, version: pkg.version, created_at: pkg.createdAt, tags: [] as string[] };
}

/** `API::Entities::Package`; `versions` only on a single package (its other versions). */
export function presentPackage(pkg: Package, ctx: PackageContext, versions?: Package[]) {
  const links: { web_path?: string; delete_api_path?: string } = {};
  // GitLab links a package's page only while it can be shown there (`default`, `deprecated`).
  if (pkg.status === 'default' || pkg.status === 'deprecated') links.web_path = `/${ctx.projectPath}/-/packages/${pkg.id}`;
  if (ctx.canDestroy) links.delete_api_path = `${config().externalUrl}/api/v4/projects/${pkg.projectId}/packages/${pkg.id}`;
  return {
    id: pkg.id,
    name: pkg.name,
    version: pkg.version,
    package_type: pkg.packageType,
    status: pkg.status,
    _links: links,
    created_at: pkg.createdAt,
    last_downloaded_at: pkg.lastDownloadedAt ?? null,
    creator_id: pkg.creatorId,
    ...(ctx.group ? { project_id: pkg.projectId, project_path: ctx.projectPath } : {}),
    tags: [] as string[],
    ...(versions ? { versions: versions.map(presentPackageVersion) } : {}),
  };
}

/** `API::Entities::PackageFile`: GitLab computes no MD5 or SHA-1 for generic files (null), only SHA-256. */
export function presentPackageFile(file: PackageFile) {
  return {
    id: file.id,
    package_id: file.packageId,
    created_at: file.createdAt,
    file_name: file.fileName,
    size: file.size,
    file_md5: null,
    file_sha1: null,
    file_sha256: file.sha256,
  };
}

/** The package file record a generic upload answers with `select=package_file` (GitLab's model attributes). */
export function presentUploadedFile(file: PackageFile, pkg: Package, downloadPath: string) {
  return {
    id: file.id,
    package_id: file.packageId,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
    size: file.size,
    file_store: 2,
    file_md5: null,
    file_sha1: null,
    file_name: file.fileName,
    file: { url: downloadPath },
    file_sha256: file.sha256,
    verification_retry_at: null,
    verified_at: null,
    verification_failure: null,
    verification_retry_count: null,
    verification_checksum: null,
    verification_state: 0,
    verification_started_at: null,
    status: 'default',
    file_final_path: null,
    project_id: pkg.projectId,
    new_file_path: null,
  };
}
