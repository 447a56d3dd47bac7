/**
 * The groups feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { afterId, type KeySpace, pad, unique, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';
import { neverIndexed, readYourWrites } from '../../platform/dynamo/recent';

export const namespaceKeys = {
  namespace: (id: number): Key => ({ PK: `NAMESPACE#${id}`, SK: 'NAMESPACE' }),
  /** A group shared with another group (GitLab's `GroupGroupLink`), in the shared group's partition. */
  groupLink: (sharedGroupId: number, invitedGroupId: number): Key => ({ PK: `NAMESPACE#${sharedGroupId}`, SK: `GROUP_LINK#${pad(invitedGroupId)}` }),

  /** Uniqueness claims: an item whose existence reserves a value. */
  claims: {
    /**
     * A project's path within its namespace: the namespace's path space, which its subgroups'
     * paths must not collide with either.
     */
    projectPath: (namespaceId: number, path: string): Key => unique('PROJECT_PATH', `${namespaceId}#${path.toLowerCase()}`),
    /** A namespace's full path (`group/subgroup`); a username is its user namespace's path, so both share it. */
    namespacePath: (fullPath: string): Key => unique('NAMESPACE_PATH', fullPath.toLowerCase()),
  },
} as const;

/**
 * A former full path of a project or group (GitLab's `RedirectRoute`), case-insensitively:
 * `redirects.ts` writes it with the rename or transfer and drops it when the path is taken again.
 * Every redirect lives in the partition of its top-level segment, sorted by its full path, so the
 * prefixes of one path are one partition and the redirects at and beneath a path one range
 * (GitLab's `matching_path_and_descendants`).
 */
export const redirectRouteKeys = {
  redirectRoute: (fullPath: string): Key => {
    const path = fullPath.toLowerCase();
    return { PK: `REDIRECT_ROUTE#${path.split('/')[0]}`, SK: `REDIRECT_ROUTE#${path}` };
  },
  /**
   * Where the first version of redirects kept a path's redirect (its own partition): still read
   * and dropped at its path, so redirects written then keep working; nothing writes it anymore.
   */
  legacyRedirectRoute: (fullPath: string): Key => ({ PK: `REDIRECT_ROUTE#${fullPath.toLowerCase()}`, SK: 'REDIRECT_ROUTE' }),
} as const;

/** The redirects strictly beneath a full path (`a/b/…` for `a/b`), by path. */
export const redirectRouteCollections = {
  beneath: (fullPath: string) => {
    const path = fullPath.toLowerCase();
    return tableCollection(`REDIRECT_ROUTE#${path.split('/')[0]}`, `REDIRECT_ROUTE#${path}/`);
  },
} as const;

/**
 * The namespaces feature's S3 object keys. A group's avatar: `groups/<groupId>/avatar/<token>/<filename>`
 * (the token is new with every upload, so a replaced avatar never shares a key with the new one).
 */
export const namespaceObjects = {
  groupAvatar: (groupId: number, token: string, filename: string): string => `groups/${groupId}/avatar/${token}/${filename}`,
} as const;

/** Secondary-index attributes, written on the item they index. */
export const namespaceIndexKeys = {
  /** GSI1: every namespace (user and group) by id. */
  namespaceList: (id: number) => ({ GSI1PK: 'NAMESPACES', GSI1SK: pad(id) }),
  /** GSI2: groups by id. */
  groupList: (id: number) => ({ GSI2PK: 'GROUPS', GSI2SK: pad(id) }),
  /** GSI3: a group's subgroups by id. */
  subgroups: (parentId: number, id: number) => ({ GSI3PK: `SUBGROUPS#${parentId}`, GSI3SK: pad(id) }),
  /** GSI1: the groups shared with a group (the invited group), by shared group id. */
  groupLinksTo: (invitedGroupId: number, sharedGroupId: number) => ({ GSI1PK: `GROUP_LINKS_TO#${invitedGroupId}`, GSI1SK: pad(sharedGroupId) }),
} as const;

/** The ranges of items one Query reads. */
export const namespaceCollections = {
  namespaces: () => indexCollection('GSI1', 'NAMESPACES'),
  /** Every group by id; `after`: only those with a greater id. */
  groups: (after?: number) => indexCollection('GSI2', 'GROUPS', afterId(after)),
  subgroups: (parentId: number) => indexCollection('GSI3', `SUBGROUPS#${parentId}`),
  /** The groups shared with a group (link items, GSI1). */
  groupLinksTo: (invitedGroupId: number) => indexCollection('GSI1', `GROUP_LINKS_TO#${invitedGroupId}`),
  /** Everything stored in a namespace's partition (a group's members). */
  namespacePartition: (namespaceId: number) => tableCollection(`NAMESPACE#${namespaceId}`, ''),
} as const;

/**
 * Search entries (`search-index.ts`): one item per term (`shared/platform/search.ts`) and
 * namespace, sorted by namespace id. Groups are found by name, path and full path; personal
 * namespaces (written by the users feature) by their path, the username.
 */
export const namespaceSearchKeys = {
  group: (term: string, id: number): Key => ({ PK: `SEARCH_GROUPS#${term}`, SK: pad(id) }),
  personal: (term: string, id: number): Key => ({ PK: `SEARCH_USER_NAMESPACES#${term}`, SK: pad(id) }),
} as const;

/** The entries of one term, by namespace id. */
export const namespaceSearchCollections = {
  groups: (term: string) => tableCollection(`SEARCH_GROUPS#${term}`, ''),
  personal: (term: string) => tableCollection(`SEARCH_USER_NAMESPACES#${term}`, ''),
} as const;

/** Index partitions whose lists show a write at once (read-your-writes journal, `platform/dynamo/recent.ts`): groups, namespaces and subgroups. */
readYourWrites('GROUPS', 'NAMESPACES', 'SUBGROUPS#');
neverIndexed('REDIRECT_ROUTE#');

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: ['NAMESPACE#', 'UNIQUE#NAMESPACE_PATH#', 'UNIQUE#PROJECT_PATH#', 'SEARCH_GROUPS#', 'SEARCH_USER_NAMESPACES#', 'REDIRECT_ROUTE#'],
  sortKeys: {
    'NAMESPACE#': ['NAMESPACE', 'GROUP_LINK#'],
    'UNIQUE#NAMESPACE_PATH#': ['UNIQUE'],
    'UNIQUE#PROJECT_PATH#': ['UNIQUE'],
    // Search entries: the namespace's zero-padded id.
    'SEARCH_GROUPS#': [''],
    'SEARCH_USER_NAMESPACES#': [''],
    // Redirect routes: `REDIRECT_ROUTE#<lower full path>` in the partition of its top-level segment.
    'REDIRECT_ROUTE#': ['REDIRECT_ROUTE#', 'REDIRECT_ROUTE'],
  },
  indexPartitions: { GSI1: ['NAMESPACES', 'GROUP_LINKS_TO#'], GSI2: ['GROUPS'], GSI3: ['SUBGROUPS#'] },
  sequences: ['namespaces'],
};
