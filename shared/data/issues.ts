/**
 * Project issues: items in their project's partition (`PROJECT#<id>` / `ISSUE#<iid>`), indexed
 * for the lists (see ACCESS_PATTERNS.md):
 *
 * - GSI1 `PROJECT_ISSUES#<projectId>#<state>` / `<created_at>#<id>`: a project's issues of one state;
 * - GSI2 `USER_ISSUES#<authorId>` / `<created_at>#<id>`: the issues a user opened (`GET /issues`);
 * - GSI3 `USER_ASSIGNED_ISSUES#<assigneeId>` / `<created_at>#<id>`: the issues assigned to a user
 *   (GitLab CE keeps one assignee, so one index attribute serves it).
 *
 * A soft-deleted issue keeps its item (its iid is never reused) with `deletedAt` set and no index
 * attributes, so no list sees it. Every write is one transaction that also checks the project is
 * live and changes the project's `openIssuesCount` when the issue's openness changes; edits and
 * deletions are conditioned on the `version` read, so a race changes the count once.
 */
import { config } from '../config';
import { indexKeys, keys } from './keys';
import { projectCounterUpdate, projectIsLive } from './projects';
import { getItem, isId, type Item } from './query';
import { TransactionConditionFailed, transactWrite, versionedPut } from './transactions';
import { entityFields } from './user-children';

export type IssueState = 'opened' | 'closed';

export interface Issue {
  /** Global id (sequence `issues`). */
  id: number;
  /** Id within the project (sequence `issues#<projectId>`). */
  iid: number;
  projectId: number;
  title: string;
  description: string | null;
  state: IssueState;
  confidential: boolean;
  authorId: number;
  /** At most one (GitLab CE). */
  assigneeIds: number[];
  milestoneId: number | null;
  /** Label ids (names are read at presentation time, so a renamed label shows its new name). */
  labelIds: number[];
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Set when soft-deleted. */
  deletedAt: string | null;
  version: number;
}

/** Why a write did not happen. */
export type IssueWriteFailure = 'project_gone' | 'issue_changed';

const table = () => config().tableName;

export const issueFromItem = (item: Item): Issue => entityFields(item) as Issue;

/** Internal: the item of an issue, with its index attributes unless it is deleted. */
function issueToItem(issue: Issue): Item {
  const indexes = issue.deletedAt
    ? {}
    : {
        ...indexKeys.projectIssues(issue.projectId, issue.state, issue.createdAt, issue.id),
        ...indexKeys.userIssues(issue.authorId, issue.createdAt, issue.id),
        ...(issue.assigneeIds.length > 0 ? indexKeys.assignedIssues(issue.assigneeIds[0], issue.createdAt, issue.id) : {}),
      };
  return { ...keys.issue(issue.projectId, issue.iid), ...indexes, type: 'Issue', ...issue };
}

const isOpen = (issue: Issue) => issue.state === 'opened' && !issue.deletedAt;

/** Internal: a put conditioned on the version read (`previous`), or on absence. */
const putIssue = (record: Issue, previous?: Issue) => versionedPut(table(), issueToItem(record), previous?.version);

/** One issue of a project by iid (consistent read), deleted ones included; `undefined` when none. */
export async function getIssue(projectId: number, iid: number): Promise<Issue | undefined> {
  if (!isId(iid)) return undefined;
  const item = await getItem(keys.issue(projectId, iid));
  return item ? issueFromItem(item) : undefined;
}

/**
 * Internal: the project item's part of a transaction (one operation per item, as DynamoDB
 * requires): the project is live, and its open-issue count moves by `delta` when not 0.
 */
function projectCheck(projectId: number, delta: number) {
  if (delta === 0) return projectIsLive(projectId);
  const { Update } = projectCounterUpdate(projectId, 'openIssuesCount', delta);
  return { Update: { ...Update, ConditionExpression: `${Update.ConditionExpression} AND attribute_not_exists(deleting)` } };
}

/** Internal: runs a transaction whose first item is the project check. */
async function write(items: Parameters<typeof transactWrite>[0]): Promise<IssueWriteFailure | undefined> {
  try {
    await transactWrite(items);
    return undefined;
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    return error.failed.includes(0) ? 'project_gone' : 'issue_changed';
  }
}

/** Adds an issue and counts it open on the project, atomically, while the project is live. */
export async function insertIssue(issue: Issue): Promise<Issue | IssueWriteFailure> {
  const failure = await write([projectCheck(issue.projectId, isOpen(issue) ? 1 : 0), putIssue(issue)]);
  return failure ?? issue;
}

/**
 * Replaces `previous` with `next` (version + 1), conditioned on the version of `previous`. A
 * change of openness (close, reopen, soft delete) moves the project's open count in the same
 * transaction, so two racing closes change it once.
 */
export async function replaceIssue(previous: Issue, next: Issue): Promise<Issue | IssueWriteFailure> {
  const written: Issue = { ...next, version: previous.version + 1 };
  const delta = Number(isOpen(written)) - Number(isOpen(previous));
  const failure = await write([projectCheck(previous.projectId, delta), putIssue(written, previous)]);
  return failure ?? written;
}
