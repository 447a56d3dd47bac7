/**
 * Draft notes of merge requests (GitLab's `draft_notes` rows): a reviewer's pending comments, one
 * item each in the target project's partition under the merge request and its author
 * (`mergeRequestKeys.draftNote`), so one author's drafts of one merge request are one range and
 * nobody else's are ever read. A draft touches nothing else: no note count, event, webhook or
 * todo, until it is published, when the note's own transaction deletes it (`draftConsumed`).
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import type { CheckedPosition } from '../diff-position';
import { mergeRequestCollections, mergeRequestKeys } from './keys';

/** A draft note as stored. */
export interface DraftNote {
  id: number;
  projectId: number;
  /** The merge request's iid (its key) and global id (`merge_request_id`). */
  iid: number;
  mergeRequestId: number;
  authorId: number;
  note: string;
  /** The discussion a reply is drafted in (`in_reply_to_discussion_id`); `null`: a new note. */
  discussionId: string | null;
  resolveDiscussion: boolean;
  commitId: string | null;
  /** A diff note's position and line code, checked against the merge request's versions when drafted. */
  diff: CheckedPosition | null;
  createdAt: string;
  updatedAt: string;
}

/** Which merge request's drafts, and whose. */
export interface DraftOwner {
  projectId: number;
  iid: number;
  authorId: number;
}

const keyOf = (draft: Pick<DraftNote, 'projectId' | 'iid' | 'authorId' | 'id'>) => mergeRequestKeys.draftNote(draft.projectId, draft.iid, draft.authorId, draft.id);

const toItem = (draft: DraftNote): Item => ({ ...keyOf(draft), type: 'DraftNote', ...draft });

const fromItem = (item: Item): DraftNote => {
  const fields = entityFields(item);
  return {
    id: Number(fields.id),
    projectId: Number(fields.projectId),
    iid: Number(fields.iid),
    mergeRequestId: Number(fields.mergeRequestId),
    authorId: Number(fields.authorId),
    note: String(fields.note),
    discussionId: fields.discussionId ?? null,
    resolveDiscussion: fields.resolveDiscussion === true,
    commitId: fields.commitId ?? null,
    diff: fields.diff ?? null,
    createdAt: String(fields.createdAt),
    updatedAt: String(fields.updatedAt),
  };
};

/** Internal: the merge request is there and not deleted (a draft on a deleted one would never be seen). */
const mergeRequestIsLive = (projectId: number, iid: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: mergeRequestKeys.mergeRequest(projectId, iid),
    // `deletedAt` is stored as `null` on a live merge request.
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :nullType))',
    ExpressionAttributeValues: { ':nullType': 'NULL' },
  },
});

/** Adds a draft while its project is live and its merge request not deleted. */
export async function insertDraftNote(draft: DraftNote): Promise<'project_gone' | 'merge_request_gone' | undefined> {
  return transactOr(
    {
      project: projectIsLive(draft.projectId),
      mergeRequest: mergeRequestIsLive(draft.projectId, draft.iid),
      draft: { Put: { TableName: tableName(), Item: toItem(draft), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['project', 'project_gone'],
      ['mergeRequest', 'merge_request_gone'],
    ],
  );
}

/** One draft of `owner`'s (consistent read); `undefined` when none (or someone else's: not in the owner's range). */
export async function getDraftNote(owner: DraftOwner, id: number): Promise<DraftNote | undefined> {
  if (!isId(id)) return undefined;
  return getEntity(mergeRequestKeys.draftNote(owner.projectId, owner.iid, owner.authorId, id), fromItem);
}

/** `owner`'s drafts of the merge request, oldest first (one Query of their range). */
export async function listDraftNotes(owner: DraftOwner): Promise<DraftNote[]> {
  return (await queryAll(mergeRequestCollections.draftNotes(owner.projectId, owner.iid, owner.authorId))).map(fromItem);
}

/** Changes a draft's text (and position, when given); `undefined` when it is gone (published or deleted meanwhile). */
export async function updateDraftNote(draft: DraftNote, changes: Pick<DraftNote, 'note' | 'updatedAt'> & { diff?: CheckedPosition }): Promise<DraftNote | undefined> {
  const updated = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(draft),
        UpdateExpression: `SET #note = :note, #updatedAt = :updatedAt${changes.diff ? ', #diff = :diff' : ''}`,
        ExpressionAttributeNames: { '#note': 'note', '#updatedAt': 'updatedAt', ...(changes.diff ? { '#diff': 'diff' } : {}) },
        ExpressionAttributeValues: { ':note': changes.note, ':updatedAt': changes.updatedAt, ...(changes.diff ? { ':diff': changes.diff } : {}) },
        ConditionExpression: 'attribute_exists(PK)',
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated?.Attributes ? fromItem(updated.Attributes) : undefined;
}

/** Deletes a draft; `false` when it was already gone. */
export async function deleteDraftNote(draft: DraftNote): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: keyOf(draft), ConditionExpression: 'attribute_exists(PK)' })),
  );
  return deleted !== undefined;
}

/**
 * The Delete of a draft in the transaction of the note it is published as, conditioned on the
 * draft still being there: of two racing publishes of one draft, one writes the note.
 */
export const draftConsumed = (draft: DraftNote): TransactItem => ({
  Delete: { TableName: tableName(), Key: keyOf(draft), ConditionExpression: 'attribute_exists(PK)' },
});
