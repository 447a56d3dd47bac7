/**
 * The merge-requests feature's keys: every key, index attribute and collection of its items is
 * built here, and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { createHash } from 'node:crypto';
import { indexCollection, pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

/** Internal: a branch name as a fixed-length key part (a branch name may be up to 255 bytes and hold `#`). */
const branchHash = (branch: string) => createHash('sha256').update(branch, 'utf8').digest('hex').slice(0, 40);

export const mergeRequestKeys = {
  /**
   * A user's counts of open merge requests (`assignedOpen`: assigned to them; `reviewRequestedOpen`:
   * they are the reviewer), in the user's partition (the users feature's; gone with the user):
   * moved only by `ADD` in the merge request write transactions that change them (#256), read by
   * `GET /user_counts` (#255).
   */
  userCounts: (userId: number): Key => ({ PK: `USER#${userId}`, SK: 'MR_USER_COUNTS' }),
  /** A merge request, in its target project's partition, by iid (kept, marked `deletedAt`, when soft-deleted). */
  mergeRequest: (projectId: number, iid: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MR#${pad(iid)}` }),
  /**
   * A diff version of a merge request (GitLab's `merge_request_diffs` row): its shas, and its
   * commits and diffs computed once (inline, or in S3 when large).
   */
  version: (projectId: number, iid: number, versionId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MR_VERSION#${pad(iid)}#${pad(versionId)}` }),
  /**
   * A commit of a merge request (GitLab's `merge_request_diff_commits` row, read backwards): in the
   * target project's partition, by commit, merge request and the version listing it (`merge` for
   * the merge request's merge commit). Entries of versions no longer the latest are left, and
   * read as stale.
   */
  commitLink: (projectId: number, sha: string, iid: number, versionId: number | 'merge'): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_COMMIT#${sha}#${pad(iid)}#${versionId === 'merge' ? 'merge' : pad(versionId)}`,
  }),
  /** A merge request shipped by a deployment (GitLab's `deployment_merge_requests` row), in the project's partition, by deployment then iid. */
  deploymentLink: (projectId: number, deploymentId: number, iid: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MR_DEPLOYMENT#${pad(deploymentId)}#${pad(iid)}` }),
  /**
   * The commits and diffs of a diff version, apart from its metadata so that listing versions
   * reads only the small items (absent when they are in S3: `versionObjectKey`).
   */
  versionContent: (projectId: number, iid: number, versionId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MR_DIFF#${pad(iid)}#${pad(versionId)}` }),
  /**
   * A relation "merge request closes issue", in the merge request's partition (`closes_issues`
   * reads one range), written at create/update from the description and the commits.
   */
  closes: (projectId: number, iid: number, issueProjectId: number, issueIid: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_CLOSES#${pad(iid)}#${pad(issueProjectId)}#${pad(issueIid)}`,
  }),
  /** The same relation seen from the issue, in the issue's partition (`closed_by` reads one range). */
  closedBy: (issueProjectId: number, issueIid: number, projectId: number, iid: number): Key => ({
    PK: `PROJECT#${issueProjectId}`,
    SK: `MR_CLOSING#${pad(issueIid)}#${pad(projectId)}#${pad(iid)}`,
  }),
  /**
   * A relation "merge request mentions issue" (its title or description references it, closing or
   * not), in the merge request's partition: what a write reads to know which mentions to remove.
   */
  mentions: (projectId: number, iid: number, issueProjectId: number, issueIid: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_MENTIONS#${pad(iid)}#${pad(issueProjectId)}#${pad(issueIid)}`,
  }),
  /** The same relation seen from the issue, in the issue's partition (`related_merge_requests` reads one range). */
  mentionedBy: (issueProjectId: number, issueIid: number, projectId: number, iid: number): Key => ({
    PK: `PROJECT#${issueProjectId}`,
    SK: `MR_MENTIONED#${pad(issueIid)}#${pad(projectId)}#${pad(iid)}`,
  }),
  /**
   * An open merge request's target branch, in the target partition: what a push to the target
   * branch reads (one range per branch) to mark its merge requests `unchecked`.
   */
  targetBranch: (projectId: number, targetBranch: string, iid: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_TARGET#${branchHash(targetBranch)}#${pad(iid)}`,
  }),
  /** A user's approval of a merge request (GitLab's `approvals` row), in the target project's partition. */
  approval: (projectId: number, iid: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MR_APPROVAL#${pad(iid)}#${pad(userId)}` }),
  /**
   * A draft note (GitLab's `draft_notes` row), in the target project's partition, by merge request,
   * then author: one author's drafts of one merge request are one range, and no one else's are read.
   */
  draftNote: (projectId: number, iid: number, authorId: number, draftId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_DRAFT#${pad(iid)}#${pad(authorId)}#${pad(draftId)}`,
  }),

  claims: {
    /**
     * GitLab's "one open merge request per source project/branch → target project/branch", in
     * the SOURCE project's partition: it doubles as the source-branch relation, so a push to a
     * branch finds its open merge requests (in any target project) in one range. Held while the
     * merge request is open (or locked), released on close and merge, taken again on reopen.
     */
    openPair: (sourceProjectId: number, sourceBranch: string, targetProjectId: number, targetBranch: string): Key => ({
      PK: `PROJECT#${sourceProjectId}`,
      SK: `MR_SOURCE#${branchHash(sourceBranch)}#${pad(targetProjectId)}#${branchHash(targetBranch)}`,
    }),
  },
} as const;

/** What the merge request list indexes are built from. */
export interface MergeRequestListed {
  id: number;
  projectId: number;
  state: string;
  authorId: number;
  assigneeId: number | null;
  reviewer?: { userId: number } | null;
  createdAt: string;
  updatedAt: string;
}

/** The order a list is read in: its index (`created_at`: GSI1-3 and GSI7, `updated_at`: GSI4-6 and GSI8). */
export type MergeRequestOrderBy = 'created_at' | 'updated_at';

/** Sort key of the lists: an ISO time, then the padded global id. */
export const mergeRequestOrderKey = (time: string, id: number): string => `${time}#${pad(id)}`;

/** Whether a value (a client's cursor) has the form of a {@link mergeRequestOrderKey}. */
export const isMergeRequestOrderKey = (value: string): boolean => /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#\d{12}$/.test(value);

/** The list partition a state is stored under: a `locked` merge request (merging) is listed as opened. */
export const listState = (state: string): string => (state === 'locked' ? 'opened' : state);

/** Internal: the partitions of the list indexes (the same in both orders). */
const partitions = {
  project: (projectId: number, state: string) => `PROJECT_MRS#${projectId}#${listState(state)}`,
  author: (userId: number) => `USER_MRS#${userId}`,
  assignee: (userId: number) => `USER_ASSIGNED_MRS#${userId}`,
  reviewer: (userId: number) => `USER_REVIEW_MRS#${userId}`,
};

/** Secondary-index attributes, written on the item they index. */
export const mergeRequestIndexKeys = {
  /**
   * The list indexes of a live merge request, by creation (GSI1 project+state, GSI2 author, GSI3
   * assignee, GSI7 reviewer) and by last update (GSI4-6 and GSI8, same partitions).
   */
  lists: (mr: MergeRequestListed) => ({
    GSI1PK: partitions.project(mr.projectId, mr.state),
    GSI1SK: mergeRequestOrderKey(mr.createdAt, mr.id),
    GSI2PK: partitions.author(mr.authorId),
    GSI2SK: mergeRequestOrderKey(mr.createdAt, mr.id),
    GSI4PK: partitions.project(mr.projectId, mr.state),
    GSI5PK: partitions.author(mr.authorId),
    ...(mr.assigneeId ? { GSI3PK: partitions.assignee(mr.assigneeId), GSI3SK: mergeRequestOrderKey(mr.createdAt, mr.id), GSI6PK: partitions.assignee(mr.assigneeId) } : {}),
    ...(mr.reviewer ? { GSI7PK: partitions.reviewer(mr.reviewer.userId), GSI7SK: mergeRequestOrderKey(mr.createdAt, mr.id), GSI8PK: partitions.reviewer(mr.reviewer.userId) } : {}),
    ...mergeRequestIndexKeys.updated(mr.updatedAt, mr.id),
  }),
  /** The update-ordered sort keys (GSI4-6, GSI8), set again whenever `updatedAt` changes. */
  updated: (updatedAt: string, id: number) => {
    const key = mergeRequestOrderKey(updatedAt, id);
    return { GSI4SK: key, GSI5SK: key, GSI6SK: key, GSI8SK: key };
  },
} as const;

const byCreation = (orderBy: MergeRequestOrderBy) => orderBy === 'created_at';

/** The ranges of items one Query reads. */
export const mergeRequestCollections = {
  /** Every merge request item of a project, deleted ones included, by iid (a deleted project's counts, #258; a hook test's sample: the first one). */
  projectMergeRequestItems: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'MR#'),
  /** A project's merge requests of one (list) state, by creation or update time. */
  projectMergeRequests: (projectId: number, state: string, orderBy: MergeRequestOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI1' : 'GSI4', partitions.project(projectId, state)),
  /** The merge requests a user authored. */
  userMergeRequests: (userId: number, orderBy: MergeRequestOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI2' : 'GSI5', partitions.author(userId)),
  /** The merge requests assigned to a user. */
  assignedMergeRequests: (userId: number, orderBy: MergeRequestOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI3' : 'GSI6', partitions.assignee(userId)),
  /** The merge requests whose review is requested from a user. */
  reviewingMergeRequests: (userId: number, orderBy: MergeRequestOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI7' : 'GSI8', partitions.reviewer(userId)),
  /** The diff versions of a merge request, by id (oldest first). */
  versions: (projectId: number, iid: number) => tableCollection(`PROJECT#${projectId}`, `MR_VERSION#${pad(iid)}#`),
  /** The issues a merge request closes. */
  closes: (projectId: number, iid: number) => tableCollection(`PROJECT#${projectId}`, `MR_CLOSES#${pad(iid)}#`),
  /** The merge requests that close an issue. */
  closedBy: (issueProjectId: number, issueIid: number) => tableCollection(`PROJECT#${issueProjectId}`, `MR_CLOSING#${pad(issueIid)}#`),
  /** The issues a merge request mentions. */
  mentions: (projectId: number, iid: number) => tableCollection(`PROJECT#${projectId}`, `MR_MENTIONS#${pad(iid)}#`),
  /** The merge requests that mention an issue. */
  mentionedBy: (issueProjectId: number, issueIid: number) => tableCollection(`PROJECT#${issueProjectId}`, `MR_MENTIONED#${pad(issueIid)}#`),
  /** The open merge requests whose source is a branch of a project (the open-pair claims). */
  fromBranch: (sourceProjectId: number, sourceBranch: string) => tableCollection(`PROJECT#${sourceProjectId}`, `MR_SOURCE#${branchHash(sourceBranch)}#`),
  /** The open merge requests targeting a branch of a project. */
  intoBranch: (projectId: number, targetBranch: string) => tableCollection(`PROJECT#${projectId}`, `MR_TARGET#${branchHash(targetBranch)}#`),
  /** The merge requests that list a commit (every version's entries, and merge commits). */
  commitLinks: (projectId: number, sha: string) => tableCollection(`PROJECT#${projectId}`, `MR_COMMIT#${sha}#`),
  /** The merge requests a deployment shipped, by iid. */
  deploymentLinks: (projectId: number, deploymentId: number) => tableCollection(`PROJECT#${projectId}`, `MR_DEPLOYMENT#${pad(deploymentId)}#`),
  /** The approvals of a merge request (by user id). */
  approvals: (projectId: number, iid: number) => tableCollection(`PROJECT#${projectId}`, `MR_APPROVAL#${pad(iid)}#`),
  /** One author's draft notes of a merge request, by id (creation order). */
  draftNotes: (projectId: number, iid: number, authorId: number) => tableCollection(`PROJECT#${projectId}`, `MR_DRAFT#${pad(iid)}#${pad(authorId)}#`),
} as const;

/** Id sequences: global ids, per-target-project iids (shared with nothing else), diff version ids, draft note ids. */
export const mergeRequestSequences = {
  mergeRequests: 'merge_requests',
  iids: (projectId: number) => `merge_requests#${projectId}`,
  versions: 'merge_request_diffs',
  /** Draft note ids (GitLab's `draft_notes.id`: global). */
  draftNotes: 'draft_notes',
} as const;

/** S3 prefix of a project's large diff versions. */
export const versionObjectPrefix = (projectId: number): string => `merge-requests/${projectId}/`;

/** S3 object key of a large diff version's commits and diffs. */
export const versionObjectKey = (projectId: number, iid: number, versionId: number): string =>
  `${versionObjectPrefix(projectId)}${iid}/versions/${versionId}.json`;

/** Index partitions whose lists show a write at once (read-your-writes journal, `platform/dynamo/recent.ts`): merge request lists (project and state, a user's). */
readYourWrites('PROJECT_MRS#', 'USER_MRS#', 'USER_ASSIGNED_MRS#', 'USER_REVIEW_MRS#');

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: {
    'USER#': ['MR_USER_COUNTS'],
    'PROJECT#': ['MR#', 'MR_VERSION#', 'MR_DIFF#', 'MR_CLOSES#', 'MR_CLOSING#', 'MR_MENTIONS#', 'MR_MENTIONED#', 'MR_TARGET#', 'MR_SOURCE#', 'MR_APPROVAL#', 'MR_DRAFT#', 'MR_DEPLOYMENT#', 'MR_COMMIT#'],
  },
  indexPartitions: {
    GSI1: ['PROJECT_MRS#'],
    GSI2: ['USER_MRS#'],
    GSI3: ['USER_ASSIGNED_MRS#'],
    GSI4: ['PROJECT_MRS#'],
    GSI5: ['USER_MRS#'],
    GSI6: ['USER_ASSIGNED_MRS#'],
    GSI7: ['USER_REVIEW_MRS#'],
    GSI8: ['USER_REVIEW_MRS#'],
  },
  sequences: ['merge_requests', 'merge_requests#', 'merge_request_diffs', 'draft_notes'],
};
