/** Internal to the commands: errors in GitLab's merge request shapes, retries, validation, version recording. */
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { nextId } from '../../platform/dynamo/counters';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { ComputedVersion } from '../git';
import { mergeRequestSequences } from '../store/keys';
import type { MergeRequest, MergeRequestWriteFailure, StoredVersion } from '../store/merge-requests';
import { linkVersionCommits } from '../store/commit-links';
import { versionItems } from '../store/versions';

/** `render_api_error!(messages, status)` with an array of messages (GitLab's merge request validation errors). */
export class MergeRequestError extends ApiError {
  constructor(status: number, messages: string[]) {
    super(status, { message: messages });
  }
}

/** 409: GitLab's `validate_branches` for a second open merge request of the same pair. */
export const pairTaken = (iid: number) => new MergeRequestError(409, [`Another open merge request already exists for this source branch: !${iid}`]);

/** 422: source and target are the same branch of the same project. */
export const sameBranch = () => new MergeRequestError(422, ["You can't use same project/branch for source and target"]);

export const MAX_TITLE_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 65_535;

/** GitLab's model validations of a title and a description. */
export function validateText(fields: { title: string; description: string | null }): void {
  const errors: Record<string, string[]> = {};
  if (fields.title.trim() === '') errors.title = ["can't be blank"];
  else if ([...fields.title].length > MAX_TITLE_LENGTH) errors.title = [`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`];
  if (fields.description !== null && [...fields.description].length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** What an attempt answers when it lost a race (re-read and apply again). */
export const AGAIN = Symbol('again');

/** Runs `attempt` on the first read, then on fresh reads while it answers {@link AGAIN}; 409 after `attempts`. */
export async function retried<R>(
  first: MergeRequest,
  reread: () => Promise<MergeRequest>,
  attempt: (current: MergeRequest) => Promise<R | typeof AGAIN>,
  attempts = 5,
): Promise<R> {
  for (let count = 1; ; count++) {
    const result = await attempt(count === 1 ? first : await reread());
    if (result !== AGAIN) return result;
    if (count >= attempts) throw new ConflictError('The merge request was modified by another request; try again');
  }
}

/** Maps a failed write: the project went (404), the pair is held (409), or another attempt. */
export function failOrAgain(result: MergeRequestWriteFailure): typeof AGAIN {
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (typeof result === 'object') throw pairTaken(result.pairTaken);
  return AGAIN;
}

/** A new diff version of `mr` (its id from the sequence), with the items that record it. */
export async function recordVersion(mr: Pick<MergeRequest, 'id' | 'projectId' | 'iid'>, computed: ComputedVersion): Promise<{ version: StoredVersion; items: TransactItem[] }> {
  const version: StoredVersion = {
    id: await nextId(mergeRequestSequences.versions),
    mergeRequestId: mr.id,
    projectId: mr.projectId,
    iid: mr.iid,
    headCommitSha: computed.headCommitSha,
    baseCommitSha: computed.baseCommitSha,
    startCommitSha: computed.startCommitSha,
    createdAt: new Date().toISOString(),
    state: computed.overflow ? 'overflow' : 'collected',
    realSize: computed.realSize,
    overflow: computed.overflow,
  };
  // The version's commits are findable from the moment it is recorded (stale until then: `commit-links.ts`).
  await linkVersionCommits(mr.projectId, mr.iid, version.id, computed.content.commits.map((commit) => commit.id));
  return { version, items: await versionItems(version, computed.content) };
}
