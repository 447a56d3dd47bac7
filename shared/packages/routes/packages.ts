/**
 * The generic package registry (GitLab's `lib/api/generic_packages.rb`) and the Packages API
 * (`project_packages.rb`, `package_files.rb`). Uploads and downloads take every credential GitLab
 * takes there: an access token (`PRIVATE-TOKEN`, Bearer, or HTTP Basic with any username), a
 * running job's token (`JOB-TOKEN`, or Basic `gitlab-ci-token:<token>`) and a deploy token
 * (`Deploy-Token`, or Basic `<username>:<token>`). Each route: find the project (404 when the
 * caller cannot see it) → authorize (403) → command or query → presenter.
 */
import { can, type ProjectSubject } from '../../auth';
import type { Caller } from '../../platform/http/context';
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findGroupOrNotFound, type Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { queryCollection } from '../../platform/dynamo/query';
import { groupProjectIds, projectCollections, projectFullPath, readableProjects } from '../../projects';
import type { catalog } from '../catalog';
import { removePackage, removePackageFile, uploadGenericFile } from '../commands/packages';
import { presentPackage, presentPackageFile, presentUploadedFile } from '../presenters/packages';
import { findGenericFileOrNotFound, findPackageFileOrNotFound, findPackageOrNotFound, groupPackageList, otherVersions, packageFileList, packageList } from '../queries/packages';
import { readFileContent, touchDownloaded, type Package } from '../store/packages';
import { NotFoundError, ParamError } from '../../platform/http/errors';
import { packageProjectOrNotFound } from './access';
import { genericFileParams, genericUploadParams, groupPackageListParams, packageFileParams, packageFilesParams, packageListParams, packageParams } from './packages.params';

/** GitLab's `route_setting :authentication` of the generic package routes. */
const GENERIC_AUTHENTICATION = { jobToken: true, basic: true, deployToken: true } as const;

/** The Packages API takes job tokens too (GitLab 15.3). */
const PACKAGES_API_AUTHENTICATION = { jobToken: true } as const;

/** Internal: the entity's context for a caller in a project. */
const contextOf = (subject: ProjectSubject, user: Caller | null) => ({
  projectPath: projectFullPath(subject.namespace, subject.project),
  canDestroy: can(user, 'destroy_package', subject),
});

/** Internal: a file's bytes as GitLab's `present_carrierwave_file!` sends them: an attachment under its name, with its SHA-256. */
function attachment(data: Buffer, fileName: string, sha256: string): HttpResult<never> {
  return {
    statusCode: 200,
    binary: { data, contentType: 'application/octet-stream' },
    headers: {
      'Content-Disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'X-Checksum-SHA256': sha256,
    },
  };
}

/** Internal: the API path of a generic file (the uploaded record's `file.url`). */
const genericPath = (projectId: number, pkg: Package, fileName: string) =>
  `/api/v4/projects/${projectId}/packages/generic/${encodeURIComponent(pkg.name)}/${encodeURIComponent(pkg.version)}/${encodeURIComponent(fileName)}`;

export const projectPackageRoutes = {
  'PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name': route({
    params: genericUploadParams,
    anonymous: true,
    authentication: GENERIC_AUTHENTICATION,
    rawBody: true,
    handler: async ({ params, user, auth, deployToken, body }): Promise<HttpResult<ReturnType<typeof presentUploadedFile> | { message: string }>> => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken }, 'create_package');
      const { pkg, file } = await uploadGenericFile(subject.project.id, {
        name: params.package_name,
        version: params.package_version,
        fileName: params.file_name,
        status: params.status,
        data: body ?? Buffer.alloc(0),
        // GitLab's `creator_id` is null for packages a deploy token or a job token creates.
        creatorId: deployToken || auth?.job ? null : (user?.id ?? null),
        jobId: auth?.job?.jobId ?? null,
      });
      if (params.select === 'package_file') return ok(presentUploadedFile(file, pkg, genericPath(subject.project.id, pkg, file.fileName)));
      return created({ message: '201 Created' });
    },
  }),
  'GET /projects/:id/packages/generic/:package_name/:package_version/:file_name': route({
    params: genericFileParams,
    anonymous: true,
    authentication: GENERIC_AUTHENTICATION,
    handler: async ({ params, user, auth, deployToken }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken }, 'read_package');
      const { pkg, file } = await findGenericFileOrNotFound(subject.project.id, params.package_name, params.package_version, params.file_name);
      const data = await readFileContent(file);
      if (!data) throw new NotFoundError();
      await touchDownloaded(pkg, new Date().toISOString());
      return attachment(data, file.fileName, file.sha256);
    },
  }),
  'GET /projects/:id/packages': route({
    params: packageListParams,
    anonymous: true,
    authentication: PACKAGES_API_AUTHENTICATION,
    handler: async ({ params, user, auth, link }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken: null }, 'read_package');
      const page = await paginate(params, link, await packageList(subject.project.id, params, params));
      const ctx = contextOf(subject, user);
      return ok(page.items.map((pkg) => presentPackage(pkg, ctx)), page.headers);
    },
  }),
  'GET /projects/:id/packages/:package_id': route({
    params: packageParams,
    anonymous: true,
    authentication: PACKAGES_API_AUTHENTICATION,
    handler: async ({ params, user, auth }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken: null }, 'read_package');
      const pkg = await findPackageOrNotFound(subject.project.id, params.package_id);
      return ok(presentPackage(pkg, contextOf(subject, user), await otherVersions(pkg)));
    },
  }),
  'GET /projects/:id/packages/:package_id/package_files': route({
    params: packageFilesParams,
    anonymous: true,
    authentication: PACKAGES_API_AUTHENTICATION,
    handler: async ({ params, user, auth, link }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken: null }, 'read_package');
      const pkg = await findPackageOrNotFound(subject.project.id, params.package_id, ['default', 'hidden']);
      const page = await paginate(params, link, packageFileList(pkg, params.order_by, params.sort));
      return ok(page.items.map(presentPackageFile), page.headers);
    },
  }),
  'DELETE /projects/:id/packages/:package_id': route({
    params: packageParams,
    authentication: PACKAGES_API_AUTHENTICATION,
    handler: async ({ params, user, auth }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken: null }, 'destroy_package');
      await removePackage(await findPackageOrNotFound(subject.project.id, params.package_id, ['default', 'hidden']));
      return noContent();
    },
  }),
  'DELETE /projects/:id/packages/:package_id/package_files/:package_file_id': route({
    params: packageFileParams,
    authentication: PACKAGES_API_AUTHENTICATION,
    handler: async ({ params, user, auth }) => {
      const subject = await packageProjectOrNotFound(params.id, { user, auth, deployToken: null }, 'destroy_package');
      const pkg = await findPackageOrNotFound(subject.project.id, params.package_id, ['default', 'hidden']);
      await removePackageFile(await findPackageFileOrNotFound(pkg, params.package_file_id));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;

/**
 * Internal: the projects of a group (and of its subgroups unless `excludeSubgroups`) whose packages
 * the caller may read, with their subjects; more than `GROUP_ISSUES_PROJECT_LIMIT` projects in the
 * tree is a 400, as a group's issue list.
 */
async function groupPackageProjects(group: Namespace, user: Caller | null, excludeSubgroups: boolean): Promise<Map<number, ProjectSubject>> {
  const limit = config().groupIssuesProjectLimit;
  let ids: number[] | 'too_many';
  if (excludeSubgroups) {
    ids = [];
    for await (const item of queryCollection(projectCollections.namespaceProjects(group.id))) {
      ids.push(Number(item.id));
      if (ids.length > limit) {
        ids = 'too_many';
        break;
      }
    }
  } else ids = await groupProjectIds(group, limit);
  if (ids === 'too_many') throw new ParamError(`the group has more than ${limit} projects; list the packages of its projects or subgroups instead`);
  const readable = await readableProjects(user, ids);
  return new Map([...readable].filter(([, subject]) => can(user, 'read_package', subject)));
}

export const groupPackageRoutes = {
  'GET /groups/:id/packages': route({
    params: groupPackageListParams,
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const subjects = await groupPackageProjects(group, user, params.exclude_subgroups === true);
      const paths = new Map([...subjects].map(([id, subject]) => [id, projectFullPath(subject.namespace, subject.project)]));
      const page = await paginate(params, link, await groupPackageList(paths, params, params));
      return ok(
        page.items.map((pkg) => {
          const subject = subjects.get(pkg.projectId)!;
          return presentPackage(pkg, { ...contextOf(subject, user), group: true });
        }),
        page.headers,
      );
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
