/**
 * Reads of packages: a project's list (GitLab's `Packages::PackagesFinder`, each order an index of
 * its own, so a page costs the same whatever the project holds), one package
 * (`Packages::PackageFinder`), a package's files, and the file a generic download names
 * (`Packages::Generic::PackageFinder`, `Packages::PackageFileFinder`: the newest of that name).
 */
import { config } from '../../platform/config';
import { queryCollection, type Item } from '../../platform/dynamo/query';
import { NotFoundError, ParamError, RecordNotFoundError } from '../../platform/http/errors';
import { mergedCollections, type CollectionSource, type PaginationParams, type StreamSource } from '../../platform/http/pagination';
import { packageCollections, type PackageOrder } from '../store/keys';
import { getPackage, getPackageFile, packageFileFromItem, packageFromItem, packageIdByName, type Package, type PackageFile, type PackageStatus, type PackageType } from '../store/packages';

export interface PackageListFilters {
  order_by: PackageOrder;
  sort: 'asc' | 'desc';
  package_type?: PackageType;
  package_name?: string;
  package_version?: string;
  status?: PackageStatus;
}

/** Internal: a package's value in an order, for the lists sorted in memory (ties by id). */
const SORT_VALUE: Record<PackageOrder, (pkg: Package) => string> = {
  created_at: () => '',
  type: (pkg) => pkg.packageType,
  name: (pkg) => pkg.name,
  version: (pkg) => pkg.version,
};

/**
 * What a list's filters ask: the status and direction, the check every package read passes
 * (`package_name` a prefix of the name, `package_version` the exact version), and the narrowest
 * index range they name (the exact version, else the name's prefix).
 */
function listFilter(filters: Pick<PackageListFilters, 'status' | 'sort' | 'package_name' | 'package_version'>) {
  const { package_name: name, package_version: version } = filters;
  const narrowed: { order: PackageOrder; prefix: string } | undefined =
    version !== undefined ? { order: 'version', prefix: `${version}#` } : name !== undefined ? { order: 'name', prefix: name } : undefined;
  return {
    status: filters.status ?? 'default',
    ascending: filters.sort === 'asc',
    keep: (pkg: Package) => (name === undefined || pkg.name.startsWith(name)) && (version === undefined || pkg.version === version),
    narrowed,
  };
}

/**
 * A project's packages matching `filters`, in their order. Without a name or version filter, a
 * page of the index of the order (the status's partition: `default` unless `status` says, as
 * GitLab lists no hidden package by default). `package_name` (GitLab's fuzzy match) is served as a
 * prefix of the name and `package_version` as the exact version, each a range of its own index:
 * keyed too when the order is that index's; in another order their matches are sorted in memory,
 * at most `config().packageSortLimit` (400 beyond; offset pagination only).
 */
export async function packageList(projectId: number, filters: PackageListFilters, pagination: Pick<PaginationParams, 'pagination'>): Promise<CollectionSource<Package> | Package[]> {
  // Only generic packages are uploaded here: another type lists nothing.
  if (filters.package_type !== undefined && filters.package_type !== 'generic') return [];
  const { status, ascending, keep, narrowed } = listFilter(filters);
  if (!narrowed || narrowed.order === filters.order_by) {
    return {
      collection: { ...packageCollections.packages(projectId, status, filters.order_by), ...(narrowed ? { prefix: narrowed.prefix } : {}) },
      ascending,
      select: (item) => {
        const pkg = packageFromItem(item);
        return keep(pkg) ? pkg : undefined;
      },
    };
  }
  if (pagination.pagination === 'keyset') throw new ParamError(`order_by is invalid: keyset pagination of filtered packages supports order_by=${narrowed.order} only`);
  const limit = config().packageSortLimit;
  const all: Package[] = [];
  for await (const item of queryCollection({ ...packageCollections.packages(projectId, status, narrowed.order), prefix: narrowed.prefix })) {
    const pkg = packageFromItem(item);
    if (keep(pkg)) all.push(pkg);
    if (all.length > limit) throw new ParamError(`order_by=${filters.order_by} is supported for up to ${limit} matching packages; narrow the list or use order_by=${narrowed.order}`);
  }
  const value = SORT_VALUE[filters.order_by];
  all.sort((a, b) => {
    const cmp = (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0) || a.id - b.id;
    return ascending ? cmp : -cmp;
  });
  return all;
}

/** A package of the project in one of `statuses` (GitLab's finders: `default` for the API's reads); `404 Not found` (its `find`) otherwise. */
export async function findPackageOrNotFound(projectId: number, packageId: number, statuses: readonly PackageStatus[] = ['default']): Promise<Package> {
  const pkg = await getPackage(projectId, packageId);
  if (!pkg || !statuses.includes(pkg.status)) throw new RecordNotFoundError();
  return pkg;
}

/** A file of a package; GitLab's `not_found!` (`404 Not Found`) otherwise. */
export async function findPackageFileOrNotFound(pkg: Package, fileId: number): Promise<PackageFile> {
  const file = await getPackageFile(pkg.projectId, pkg.id, fileId);
  if (!file) throw new NotFoundError();
  return file;
}

/** Internal: a package's file order (`order_by` of the package files list). */
export type PackageFileOrder = 'id' | 'file_name' | 'created_at';

/** A package's files: by id (and `created_at`, the same order) from the table, by name from the package's index. */
export function packageFileList(pkg: Package, order: PackageFileOrder, sort: 'asc' | 'desc'): CollectionSource<PackageFile> {
  return {
    collection: order === 'file_name' ? packageCollections.filesByName(pkg.id) : packageCollections.files(pkg.projectId, pkg.id),
    ascending: sort === 'asc',
    select: packageFileFromItem,
  };
}

/**
 * The file a generic download names: the project's generic package of that name and version that
 * may be installed (`default` or `hidden`), and its newest file of that name (GitLab allows
 * several). One GetItem of the name claim, one of the package, one Query of one item.
 */
export async function findGenericFileOrNotFound(projectId: number, name: string, version: string, fileName: string): Promise<{ pkg: Package; file: PackageFile }> {
  const packageId = await packageIdByName(projectId, 'generic', name, version);
  const pkg = packageId === undefined ? undefined : await getPackage(projectId, packageId);
  if (!pkg || (pkg.status !== 'default' && pkg.status !== 'hidden')) throw new RecordNotFoundError();
  for await (const item of queryCollection(packageCollections.filesByName(pkg.id, fileName), { ascending: false, pageSize: 1 })) {
    return { pkg, file: packageFileFromItem(item) };
  }
  throw new RecordNotFoundError();
}

/**
 * The other versions of a package's name (GitLab's `versions` of a single package), newest first,
 * at most {@link VERSIONS_SHOWN}: one Query of the name's range in the name index.
 */
export async function otherVersions(pkg: Package): Promise<Package[]> {
  const versions: Package[] = [];
  for await (const item of queryCollection({ ...packageCollections.packages(pkg.projectId, 'default', 'name'), prefix: `${pkg.name}#` }, { ascending: false, pageSize: VERSIONS_SHOWN + 1 })) {
    const other = packageFromItem(item);
    if (other.id !== pkg.id && other.packageType === pkg.packageType) versions.push(other);
    if (versions.length === VERSIONS_SHOWN) break;
  }
  return versions;
}

/** How many other versions a single package shows (GitLab shows them all; bounded here so a read's cost stays flat). */
export const VERSIONS_SHOWN = 100;


/** Internal: the sort keys of each order's index (`<id>`, `<name>#<id>`, `<version>#<id>`), for cursors. */
const SORT_KEY_FORMAT: Record<PackageOrder, RegExp> = { created_at: /^\d{12}$/, type: /^\d{12}$/, name: /#\d{12}$/, version: /#\d{12}$/ };

/**
 * The packages of several projects (a group's, GitLab's `Packages::GroupPackagesFinder`) matching
 * `filters`: each project's range of the order's index merged in sort-key order (one Query per
 * project per page: the cost grows with the group's projects, bounded by
 * `GROUP_ISSUES_PROJECT_LIMIT`, never with their packages). `project_path`, and a filter in another
 * order than its index's, sort the matches in memory (at most `config().packageSortLimit`, 400
 * beyond; offset pagination only).
 */
export async function groupPackageList(
  projects: ReadonlyMap<number, string>,
  filters: Omit<PackageListFilters, 'order_by'> & { order_by: PackageOrder | 'project_path' },
  pagination: Pick<PaginationParams, 'pagination'>,
): Promise<StreamSource<Package> | Package[]> {
  if ((filters.package_type !== undefined && filters.package_type !== 'generic') || projects.size === 0) return [];
  const { status, ascending, keep, narrowed } = listFilter(filters);
  const select = (item: Item) => {
    const pkg = packageFromItem(item);
    return keep(pkg) ? pkg : undefined;
  };
  const collectionsIn = (order: PackageOrder) =>
    [...projects.keys()].map((projectId) => ({ ...packageCollections.packages(projectId, status, order), ...(narrowed && narrowed.order === order ? { prefix: narrowed.prefix } : {}) }));
  if (filters.order_by !== 'project_path' && (!narrowed || narrowed.order === filters.order_by)) {
    const order = filters.order_by;
    return mergedCollections(collectionsIn(order), { ascending, isSortKey: (key) => SORT_KEY_FORMAT[order].test(key), select });
  }
  if (pagination.pagination === 'keyset') throw new ParamError(`order_by is invalid: keyset pagination of these packages supports order_by=${narrowed?.order ?? 'created_at'} only`);
  const limit = config().packageSortLimit;
  const all: Package[] = [];
  for await (const entry of mergedCollections(collectionsIn(narrowed?.order ?? 'created_at'), { ascending: true, isSortKey: () => true, select }).read(undefined, limit + 1)) {
    if (entry.value) all.push(entry.value);
    if (all.length > limit) throw new ParamError(`order_by=${filters.order_by} is supported for up to ${limit} matching packages; narrow the list or use order_by=${narrowed?.order ?? 'created_at'}`);
  }
  const value = (pkg: Package) => (filters.order_by === 'project_path' ? (projects.get(pkg.projectId) ?? '') : SORT_VALUE[filters.order_by](pkg));
  all.sort((a, b) => {
    const cmp = (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0) || a.id - b.id;
    return ascending ? cmp : -cmp;
  });
  return all;
}
