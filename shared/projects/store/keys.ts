/**
 * The projects feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { createHash } from 'node:crypto';
import { afterId, type KeySpace, pad, unique, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';
import { projectObjects } from './objects';

export const projectKeys = {
  project: (id: number): Key => ({ PK: `PROJECT#${id}`, SK: 'PROJECT' }),
  star: (projectId: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `STAR#${pad(userId)}` }),
  /** A project shared with a group. */
  share: (projectId: number, groupId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `SHARE#${pad(groupId)}` }),
  /** A file uploaded to a project, by its secret (32 hex characters); the bytes are in S3. */
  upload: (projectId: number, secret: string): Key => ({ PK: `PROJECT#${projectId}`, SK: `UPLOAD#${secret}` }),
  /**
   * That a user contributed to a project (GitLab's `Event.contributions`: pushes, comments, issues
   * and merge requests opened, closed, merged or approved), one per user and project, in the
   * project's partition (deleted with it) and indexed by user in GSI1 (`contributionKeys`).
   */
  contribution: (projectId: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `CONTRIBUTOR#${pad(userId)}` }),
  /** A contribution event, in its project's partition (the project feed). */
  event: (projectId: number, eventId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `EVENT#${pad(eventId)}` }),
  /**
   * Which project a runners registration token belongs to, under the token's SHA-256 (the token
   * itself is sealed on the project, so it cannot be searched for): `POST /runners` finds its
   * project with one GetItem.
   */
  runnersToken: (token: string): Key => ({ PK: `RUNNERS_TOKEN#${createHash('sha256').update(token, 'utf8').digest('hex')}`, SK: 'PROJECT' }),

  /** Uniqueness claims: an item whose existence reserves a value. */
  claims: {
    /**
     * A project's name within its namespace, case-sensitive as GitLab's, under the name's SHA-256
     * (a 255-character name can exceed the key size limit in UTF-8).
     */
    projectName: (namespaceId: number, name: string): Key =>
      unique('PROJECT_NAME', `${namespaceId}#${createHash('sha256').update(name, 'utf8').digest('hex')}`),
  },
} as const;

/** Secondary-index attributes, written on the item they index. */
export const projectIndexKeys = {
  /** GSI1: every project by id. */
  projectList: (id: number) => ({ GSI1PK: 'PROJECTS', GSI1SK: pad(id) }),
  /** GSI2: projects of one visibility by id. */
  projectVisibility: (visibility: string, id: number) => ({ GSI2PK: `PROJECTS#${visibility}`, GSI2SK: pad(id) }),
  /** GSI3: the projects of a namespace by id. */
  namespaceProjects: (namespaceId: number, id: number) => ({ GSI3PK: `NAMESPACE_PROJECTS#${namespaceId}`, GSI3SK: pad(id) }),
  /** GSI4: the forks of a project, by id. */
  projectFork: (sourceId: number, id: number) => ({ GSI4PK: `PROJECT_FORKS#${sourceId}`, GSI4SK: pad(id) }),
  /** GSI1: the projects a user starred, by project id. */
  userStar: (userId: number, projectId: number) => ({ GSI1PK: `USER_STARS#${userId}`, GSI1SK: pad(projectId) }),
  /**
   * GSI2 of a star: a project's starrers, newest star first (GitLab's `order_id_desc`), by the
   * star's time and the user's id (two stars in one millisecond stay apart).
   */
  projectStarrer: (projectId: number, createdAt: string, userId: number) => ({ GSI2PK: `PROJECT_STARRERS#${projectId}`, GSI2SK: `${createdAt}#${pad(userId)}` }),
  /** GSI1: the projects a user contributed to, by project id. */
  userContribution: (userId: number, projectId: number) => ({ GSI1PK: `USER_CONTRIBUTED#${userId}`, GSI1SK: pad(projectId) }),
  /** GSI1: the projects shared with a group, by project id. */
  groupShare: (groupId: number, projectId: number) => ({ GSI1PK: `GROUP_SHARES#${groupId}`, GSI1SK: pad(projectId) }),
  /** GSI1: a user's contribution events, newest first by event id. */
  userEvents: (userId: number, eventId: number) => ({ GSI1PK: `USER_EVENTS#${userId}`, GSI1SK: pad(eventId) }),
} as const;

/** The ranges of items one Query reads. */
export const projectCollections = {
  userEvents: (userId: number) => indexCollection('GSI1', `USER_EVENTS#${userId}`),
  projectEvents: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'EVENT#'),
  /** Every project by id; `after`: only those with a greater id. */
  projects: (after?: number) => indexCollection('GSI1', 'PROJECTS', afterId(after)),
  projectsWithVisibility: (visibility: string) => indexCollection('GSI2', `PROJECTS#${visibility}`),
  namespaceProjects: (namespaceId: number) => indexCollection('GSI3', `NAMESPACE_PROJECTS#${namespaceId}`),
  userStars: (userId: number) => indexCollection('GSI1', `USER_STARS#${userId}`),
  /** A project's stars, newest first when read descending (GSI2). */
  projectStarrers: (projectId: number) => indexCollection('GSI2', `PROJECT_STARRERS#${projectId}`),
  /** A project's stars in its partition, by user id (every star, those written before GSI2 too). */
  projectStars: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'STAR#'),
  /** The projects a user contributed to, by project id (GSI1). */
  userContributions: (userId: number) => indexCollection('GSI1', `USER_CONTRIBUTED#${userId}`),
  projectForks: (sourceId: number) => indexCollection('GSI4', `PROJECT_FORKS#${sourceId}`),
  groupShares: (groupId: number) => indexCollection('GSI1', `GROUP_SHARES#${groupId}`),
  projectShares: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'SHARE#'),
  /** Everything stored in a project's partition (used to delete a project completely). */
  projectPartition: (projectId: number) => tableCollection(`PROJECT#${projectId}`, ''),
} as const;

/**
 * Search entries (the namespaces feature's `search-index.ts`): one item per term
 * (`shared/platform/search.ts`) of a project's name, path and description, sorted by project id.
 */
export const projectSearchKeys = {
  entry: (term: string, projectId: number): Key => ({ PK: `SEARCH_PROJECTS#${term}`, SK: pad(projectId) }),
} as const;

/** The entries of one term, by project id. */
export const projectSearchCollections = {
  entries: (term: string) => tableCollection(`SEARCH_PROJECTS#${term}`, ''),
} as const;

/**
 * Project topics (GitLab's `Projects::Topic`): instance-wide items of their own, their names unique
 * case-insensitively (a claim under the lower-cased name's SHA-256: a 255-character name can exceed
 * the key size limit in UTF-8), listed by id (GSI1 `TOPICS`) and searched by their name's terms.
 */
export const topicKeys = {
  topic: (id: number): Key => ({ PK: `TOPIC#${id}`, SK: 'TOPIC' }),
  nameClaim: (name: string): Key => unique('TOPIC_NAME', createHash('sha256').update(name.toLowerCase(), 'utf8').digest('hex')),
  searchEntry: (term: string, topicId: number): Key => ({ PK: `SEARCH_TOPICS#${term}`, SK: pad(topicId) }),
} as const;

export const topicIndexKeys = {
  /** GSI1: every topic by id. */
  topicList: (id: number) => ({ GSI1PK: 'TOPICS', GSI1SK: pad(id) }),
} as const;

export const topicCollections = {
  topics: () => indexCollection('GSI1', 'TOPICS'),
  searchEntries: (term: string) => tableCollection(`SEARCH_TOPICS#${term}`, ''),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
/**
 * A project's avatar in S3: `projects/<projectId>/avatar/<token>/<filename>`, under the project's
 * prefix (deleted with the project); the token is new with every upload.
 */
export const projectAvatarObject = (projectId: number, token: string, filename: string): string =>
  `${projectObjects.projectPrefix(projectId)}avatar/${token}/${filename}`;

/** Index partitions whose lists show a write at once (read-your-writes journal, `platform/dynamo/recent.ts`): projects, by visibility, by namespace, forks, a user's stars, a project's starrers, topics. */
readYourWrites('PROJECTS', 'NAMESPACE_PROJECTS#', 'PROJECT_FORKS#', 'USER_STARS#', 'USER_EVENTS#', 'PROJECT_STARRERS#', 'TOPICS');

export const keySpace: KeySpace = {
  partitions: ['PROJECT#', 'UNIQUE#PROJECT_NAME#', 'RUNNERS_TOKEN#', 'SEARCH_PROJECTS#', 'TOPIC#', 'UNIQUE#TOPIC_NAME#', 'SEARCH_TOPICS#'],
  sortKeys: {
    'PROJECT#': ['PROJECT', 'STAR#', 'SHARE#', 'UPLOAD#', 'EVENT#', 'CONTRIBUTOR#'],
    'UNIQUE#PROJECT_NAME#': ['UNIQUE'],
    'RUNNERS_TOKEN#': ['PROJECT'],
    // Search entries: the project's zero-padded id.
    'SEARCH_PROJECTS#': [''],
    'TOPIC#': ['TOPIC'],
    'UNIQUE#TOPIC_NAME#': ['UNIQUE'],
    'SEARCH_TOPICS#': [''],
  },
  indexPartitions: {
    GSI1: ['PROJECTS', 'USER_STARS#', 'GROUP_SHARES#', 'USER_EVENTS#', 'USER_CONTRIBUTED#', 'TOPICS'],
    GSI2: ['PROJECTS#', 'PROJECT_STARRERS#'],
    GSI3: ['NAMESPACE_PROJECTS#'],
    GSI4: ['PROJECT_FORKS#'],
  },
  sequences: ['projects', 'events', 'topics'],
};
