/**
 * Every key of the single table is built here, and only here. Handlers and domain code ask for
 * `keys.user(42)` or `collections.userSshKeys(42)`; they never concatenate key strings.
 * The access patterns these keys serve are listed in ACCESS_PATTERNS.md next to this file —
 * change both together.
 */
import { createHash } from 'node:crypto';
import type { IndexName } from './table-definition';

/** Zero-padded so that lexicographic sort-key order is numeric order. */
export const pad = (n: number): string => n.toString().padStart(12, '0');

export type Key = { PK: string; SK: string };

/** What a membership belongs to: a group (a namespace) or a project. */
export type MemberSource = { kind: 'group' | 'project'; id: number };
const sourcePK = (source: MemberSource) => (source.kind === 'group' ? `NAMESPACE#${source.id}` : `PROJECT#${source.id}`);

const unique = (kind: string, value: string): Key => ({ PK: `UNIQUE#${kind}#${value}`, SK: 'UNIQUE' });

export const keys = {
  /** Atomic id sequences, one item per sequence name. */
  counter: (name: string): Key => ({ PK: `COUNTER#${name}`, SK: 'COUNTER' }),
  /** Maintained totals of a collection (e.g. users by state), for X-Total without counting. */
  stats: (name: string): Key => ({ PK: `STATS#${name}`, SK: 'STATS' }),

  user: (id: number): Key => ({ PK: `USER#${id}`, SK: 'USER' }),
  sshKey: (userId: number, keyId: number): Key => ({ PK: `USER#${userId}`, SK: `SSHKEY#${pad(keyId)}` }),
  email: (userId: number, emailId: number): Key => ({ PK: `USER#${userId}`, SK: `EMAIL#${pad(emailId)}` }),
  token: (userId: number, tokenId: number): Key => ({ PK: `USER#${userId}`, SK: `TOKEN#${pad(tokenId)}` }),
  /** Points a token's SHA-256 digest at its owner and token id (authentication lookup). */
  tokenDigest: (digest: string): Key => ({ PK: `TOKEN_DIGEST#${digest}`, SK: 'TOKEN' }),
  namespace: (id: number): Key => ({ PK: `NAMESPACE#${id}`, SK: 'NAMESPACE' }),
  project: (id: number): Key => ({ PK: `PROJECT#${id}`, SK: 'PROJECT' }),
  /** A direct membership of a user in a group (namespace) or a project. */
  member: (source: MemberSource, userId: number): Key => ({ PK: sourcePK(source), SK: `MEMBER#${pad(userId)}` }),
  star: (projectId: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `STAR#${pad(userId)}` }),
  /** A project shared with a group. */
  share: (projectId: number, groupId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `SHARE#${pad(groupId)}` }),
  hook: (projectId: number, hookId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK#${pad(hookId)}` }),
  /** A file uploaded to a project, by its secret (32 hex characters); the bytes are in S3. */
  upload: (projectId: number, secret: string): Key => ({ PK: `PROJECT#${projectId}`, SK: `UPLOAD#${secret}` }),
  /** A contribution event, in its project's partition (the project feed). */
  event: (projectId: number, eventId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `EVENT#${pad(eventId)}` }),
  /** A project label, in its project's partition (listed and deleted with the project). */
  label: (projectId: number, labelId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `LABEL#${pad(labelId)}` }),
  /** A project milestone, by its global id. */
  milestone: (projectId: number, milestoneId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MILESTONE#${pad(milestoneId)}` }),
  /** A project issue, by its iid (kept, marked `deletedAt`, when soft-deleted). */
  issue: (projectId: number, iid: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `ISSUE#${pad(iid)}` }),
  /** A user's explicit choice about an issue's notifications (`subscribed` true or false; absent: participants are subscribed). */
  issueSubscription: (projectId: number, iid: number, userId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `SUBSCRIPTION#${pad(iid)}#${pad(userId)}`,
  }),
  /** A user's pending todo on an issue (at most one, so `POST .../todo` answers 304 the second time). */
  issueTodo: (projectId: number, iid: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `TODO#${pad(iid)}#${pad(userId)}` }),
  /**
   * A todo marked done, by its id: moved out of the pending key so the user may mark a new todo
   * on the same issue, and kept in the project partition so deleting the project deletes it.
   */
  doneTodo: (projectId: number, todoId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `DONE_TODO#${pad(todoId)}` }),
  /** A webhook event waiting to be delivered (an outbox item: its stream record triggers delivery; TTL removes it). */
  hookEvent: (projectId: number, eventId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK_EVENT#${pad(eventId)}` }),
  /** A note (comment) on an issue, after its issue's iid so one issue's notes are one range, by id. */
  note: (projectId: number, issueIid: number, noteId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `NOTE#${pad(issueIid)}#${pad(noteId)}` }),

  /** Uniqueness claims: an item whose existence reserves a value (case-insensitive). */
  claims: {
    /** A namespace's full path (`group/subgroup`); a username is its user namespace's path, so both share it. */
    namespacePath: (fullPath: string): Key => unique('NAMESPACE_PATH', fullPath.toLowerCase()),
    /** A project's path within its namespace. */
    projectPath: (namespaceId: number, path: string): Key => unique('PROJECT_PATH', `${namespaceId}#${path.toLowerCase()}`),
    /**
     * A project's name within its namespace, case-sensitive as GitLab's, under the name's SHA-256
     * (a 255-character name can exceed the key size limit in UTF-8).
     */
    projectName: (namespaceId: number, name: string): Key =>
      unique('PROJECT_NAME', `${namespaceId}#${createHash('sha256').update(name, 'utf8').digest('hex')}`),
    email: (email: string): Key => unique('EMAIL', email.toLowerCase()),
    sshFingerprint: (fingerprint: string): Key => unique('SSH_FINGERPRINT', fingerprint),
    identity: (provider: string, externUid: string): Key =>
      unique('IDENTITY', `${provider.toLowerCase()}#${externUid}`),
    /**
     * A label's name within its project, case-insensitive (`Bug` and `bug` are one label). Kept
     * in the project's partition (`LABEL_NAME#`, outside the `LABEL#` range), so deleting the
     * project deletes it with the labels, under the SHA-256 of the lower-cased name: a
     * 255-character name can exceed the 1024-byte sort-key limit in UTF-8.
     */
    labelName: (projectId: number, name: string): Key => ({
      PK: `PROJECT#${projectId}`,
      SK: `LABEL_NAME#${createHash('sha256').update(name.toLowerCase(), 'utf8').digest('hex')}`,
    }),
    /**
     * A milestone's title within its project, case-sensitive as in GitLab. Kept in the project's
     * partition (so deleting the project removes it) under the title's SHA-256: a 255-character
     * title can exceed the 1024-byte sort-key limit in UTF-8.
     */
    milestoneTitle: (projectId: number, title: string): Key => ({
      PK: `PROJECT#${projectId}`,
      SK: `MILESTONE_TITLE#${createHash('sha256').update(title, 'utf8').digest('hex')}`,
    }),
  },
} as const;

/** Secondary-index attributes, written on the item they index. */
export const indexKeys = {
  /** GSI1: all users by id. */
  userList: (id: number) => ({ GSI1PK: 'USERS', GSI1SK: pad(id) }),
  /** GSI2: users of one state (`active`, `blocked`) by id. */
  userState: (state: string, id: number) => ({ GSI2PK: `USERS#${state}`, GSI2SK: pad(id) }),
  /** GSI3: users by last activity day, then id. */
  userActivity: (day: string, id: number) => ({ GSI3PK: 'USER_ACTIVITY', GSI3SK: `${day}#${pad(id)}` }),
  /** GSI1: an SSH key by its global id (for `GET /keys/:id`). */
  sshKeyById: (keyId: number) => ({ GSI1PK: `SSHKEY#${keyId}`, GSI1SK: 'SSHKEY' }),
  /** GSI1: every namespace (user and group) by id. */
  namespaceList: (id: number) => ({ GSI1PK: 'NAMESPACES', GSI1SK: pad(id) }),
  /** GSI2: groups by id. */
  groupList: (id: number) => ({ GSI2PK: 'GROUPS', GSI2SK: pad(id) }),
  /** GSI3: a group's subgroups by id. */
  subgroups: (parentId: number, id: number) => ({ GSI3PK: `SUBGROUPS#${parentId}`, GSI3SK: pad(id) }),
  /** GSI1: every project by id. */
  projectList: (id: number) => ({ GSI1PK: 'PROJECTS', GSI1SK: pad(id) }),
  /** GSI2: projects of one visibility by id. */
  projectVisibility: (visibility: string, id: number) => ({ GSI2PK: `PROJECTS#${visibility}`, GSI2SK: pad(id) }),
  /** GSI3: the projects of a namespace by id. */
  namespaceProjects: (namespaceId: number, id: number) => ({ GSI3PK: `NAMESPACE_PROJECTS#${namespaceId}`, GSI3SK: pad(id) }),
  /** GSI1: a user's memberships, groups then projects, by id. */
  userMembership: (userId: number, source: MemberSource) => ({
    GSI1PK: `USER_MEMBERSHIPS#${userId}`,
    GSI1SK: `${source.kind.toUpperCase()}#${pad(source.id)}`,
  }),
  /** GSI1: the projects a user starred, by project id. */
  userStar: (userId: number, projectId: number) => ({ GSI1PK: `USER_STARS#${userId}`, GSI1SK: pad(projectId) }),
  /** GSI1: the projects shared with a group, by project id. */
  groupShare: (groupId: number, projectId: number) => ({ GSI1PK: `GROUP_SHARES#${groupId}`, GSI1SK: pad(projectId) }),
  /** GSI1: a user's contribution events, newest first by event id. */
  userEvents: (userId: number, eventId: number) => ({ GSI1PK: `USER_EVENTS#${userId}`, GSI1SK: pad(eventId) }),
  /**
   * The list indexes of a live issue, each twice: ordered by creation (GSI1 its project's issues
   * of its state, GSI2 its author's, GSI3 its assignee's) and by last update (GSI4, GSI5, GSI6,
   * same partitions). An issue has at most one assignee (GitLab CE), so one attribute serves.
   */
  issueLists: (issue: IssueListed) => ({
    GSI1PK: issuePartitions.project(issue.projectId, issue.state),
    GSI1SK: issueOrderKey(issue.createdAt, issue.id),
    GSI2PK: issuePartitions.author(issue.authorId),
    GSI2SK: issueOrderKey(issue.createdAt, issue.id),
    GSI4PK: issuePartitions.project(issue.projectId, issue.state),
    GSI5PK: issuePartitions.author(issue.authorId),
    ...(issue.assigneeIds.length > 0
      ? { GSI3PK: issuePartitions.assignee(issue.assigneeIds[0]), GSI3SK: issueOrderKey(issue.createdAt, issue.id), GSI6PK: issuePartitions.assignee(issue.assigneeIds[0]) }
      : {}),
    ...indexKeys.issueUpdated(issue.updatedAt, issue.id),
  }),
  /**
   * The update-ordered sort keys of an issue (GSI4-6), set again whenever `updatedAt` changes.
   * `GSI6SK` is written even when unassigned: without `GSI6PK` it indexes nothing.
   */
  issueUpdated: (updatedAt: string, id: number) => {
    const key = issueOrderKey(updatedAt, id);
    return { GSI4SK: key, GSI5SK: key, GSI6SK: key };
  },
  /** GSI1: a user's todos of one state (`pending`, `done`) by id (GitLab lists them newest first). */
  userTodos: (userId: number, state: TodoState, todoId: number) => ({ GSI1PK: userTodoPartition(userId, state), GSI1SK: pad(todoId) }),
} as const;

/** The states a todo's list is partitioned by. */
export type TodoState = 'pending' | 'done';

/** Internal: the GSI1 partition of a user's todos of one state. */
const userTodoPartition = (userId: number, state: TodoState) => `USER_TODOS#${userId}#${state}`;

/** Sort key of issue lists: an ISO time (creation or last update), then the padded global id. */
export const issueOrderKey = (time: string, id: number): string => `${time}#${pad(id)}`;

/** What the issue list indexes are built from. */
export interface IssueListed {
  id: number;
  projectId: number;
  state: string;
  authorId: number;
  assigneeIds: number[];
  createdAt: string;
  updatedAt: string;
}

/** The order an issue list is read in: its index (`created_at`: GSI1-3, `updated_at`: GSI4-6). */
export type IssueOrderBy = 'created_at' | 'updated_at';

/** Internal: the partitions of the issue list indexes (the same in both orders). */
const issuePartitions = {
  project: (projectId: number, state: string) => `PROJECT_ISSUES#${projectId}#${state}`,
  author: (userId: number) => `USER_ISSUES#${userId}`,
  assignee: (userId: number) => `USER_ASSIGNED_ISSUES#${userId}`,
};

const byCreation = (orderBy: IssueOrderBy) => orderBy === 'created_at';

/** A range of items read by one Query: a partition and an optional sort-key prefix or lower bound. */
export interface Collection {
  index?: IndexName;
  partitionAttribute: string;
  partitionValue: string;
  sortAttribute: string;
  /** Only sort keys starting with this. */
  prefix?: string;
  /** Only sort keys `>=` this. */
  from?: string;
  /** Only sort keys `<` this. */
  below?: string;
}

const tableCollection = (pk: string, prefix: string): Collection => ({
  partitionAttribute: 'PK',
  partitionValue: pk,
  sortAttribute: 'SK',
  prefix,
});

const indexCollection = (index: IndexName, pk: string, extra: Partial<Collection> = {}): Collection => ({
  index,
  partitionAttribute: `${index}PK`,
  partitionValue: pk,
  sortAttribute: `${index}SK`,
  ...extra,
});

export const collections = {
  users: () => indexCollection('GSI1', 'USERS'),
  usersInState: (state: string) => indexCollection('GSI2', `USERS#${state}`),
  usersActiveSince: (day: string) => indexCollection('GSI3', 'USER_ACTIVITY', { from: day }),
  userSshKeys: (userId: number) => tableCollection(`USER#${userId}`, 'SSHKEY#'),
  userEmails: (userId: number) => tableCollection(`USER#${userId}`, 'EMAIL#'),
  userTokens: (userId: number) => tableCollection(`USER#${userId}`, 'TOKEN#'),
  /** Everything stored in a user's partition (used to delete a user completely). */
  userPartition: (userId: number) => tableCollection(`USER#${userId}`, ''),
  sshKeyById: (keyId: number) => indexCollection('GSI1', `SSHKEY#${keyId}`),
  userEvents: (userId: number) => indexCollection('GSI1', `USER_EVENTS#${userId}`),
  projectEvents: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'EVENT#'),
  namespaces: () => indexCollection('GSI1', 'NAMESPACES'),
  groups: () => indexCollection('GSI2', 'GROUPS'),
  subgroups: (parentId: number) => indexCollection('GSI3', `SUBGROUPS#${parentId}`),
  projects: () => indexCollection('GSI1', 'PROJECTS'),
  projectsWithVisibility: (visibility: string) => indexCollection('GSI2', `PROJECTS#${visibility}`),
  namespaceProjects: (namespaceId: number) => indexCollection('GSI3', `NAMESPACE_PROJECTS#${namespaceId}`),
  members: (source: MemberSource) => tableCollection(sourcePK(source), 'MEMBER#'),
  userMemberships: (userId: number, kind?: MemberSource['kind']) =>
    indexCollection('GSI1', `USER_MEMBERSHIPS#${userId}`, kind ? { prefix: `${kind.toUpperCase()}#` } : {}),
  userStars: (userId: number) => indexCollection('GSI1', `USER_STARS#${userId}`),
  groupShares: (groupId: number) => indexCollection('GSI1', `GROUP_SHARES#${groupId}`),
  projectShares: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'SHARE#'),
  projectHooks: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'HOOK#'),
  /** A project's labels by id (not their name claims: `LABEL_NAME#` does not start with `LABEL#`). */
  projectLabels: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'LABEL#'),
  /** A project's milestones by id (not their title claims: `MILESTONE_TITLE#` does not start with `MILESTONE#`). */
  projectMilestones: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'MILESTONE#'),
  /** A project's issues of one state, by creation or update time (soft-deleted issues carry no index keys). */
  projectIssues: (projectId: number, state: string, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI1' : 'GSI4', issuePartitions.project(projectId, state)),
  /** The notes of one issue, by id (id order is creation order). */
  issueNotes: (projectId: number, issueIid: number) => tableCollection(`PROJECT#${projectId}`, `NOTE#${pad(issueIid)}#`),
  /** The issues a user authored, by creation or update time. */
  userIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI2' : 'GSI5', issuePartitions.author(userId)),
  /** The issues assigned to a user, by creation or update time. */
  assignedIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI3' : 'GSI6', issuePartitions.assignee(userId)),
  /** A user's todos of one state, by id. */
  userTodos: (userId: number, state: TodoState) => indexCollection('GSI1', userTodoPartition(userId, state)),
  /** Everything stored in a project's partition (used to delete a project completely). */
  projectPartition: (projectId: number) => tableCollection(`PROJECT#${projectId}`, ''),
  /** Everything stored in a namespace's partition (a group's members). */
  namespacePartition: (namespaceId: number) => tableCollection(`NAMESPACE#${namespaceId}`, ''),
} as const;
