/**
 * Award emoji (emoji reactions) on issues, merge requests and their notes: items in the project
 * partition, one awardable's awards one sort-key range by id (`issueKeys.award`), so deleting the
 * project deletes them with the rest of it. One award per user, name and awardable: a claim item
 * (`issueKeys.awardName`) written in the award's transaction.
 *
 * An issue's or a merge request's `upvotes`/`downvotes` (its `thumbsup`/`thumbsdown` awards) are
 * counters on its item changed by `ADD` in the same transaction as the award (`votePart`), so
 * lists present them without counting; the award keeps that item's key (`noteableKey`) for the
 * user deletion, which takes a deleted user's votes back. Every award write checks that the issue
 * or merge request is there and not deleted, and a note's award that the note still exists. Each
 * award is also listed among its user's (GSI2 `USER_AWARDS#<userId>`), which the user's deletion
 * walks to move them to the ghost user or delete them (`moveAward`, `removeUserAward`).
 */
import { tableName } from '../../platform/dynamo/client';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import type { Key } from '../../platform/dynamo/keys';
import { addIndexEntry } from '../../platform/dynamo/migrations';
import { getEntity, isId, queryCollection, type Item } from '../../platform/dynamo/query';
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueIndexKeys, issueKeys, noteableKeys, type AwardableKeyed } from './keys';
import { votePart, type Noteable, type VoteCounter, type VotedItem } from './noteables';

/** An award emoji as stored. */
export interface AwardEmoji {
  /** Global id (sequence `award_emoji`). */
  id: number;
  projectId: number;
  name: string;
  userId: number;
  awardableType: AwardableKeyed['type'];
  /** The awardable's global id (`awardable_id`). */
  awardableId: number;
  /** The issue's or merge request's iid, or the note's id (its keys). */
  localId: number;
  /** An issue's or merge request's own award: the key of the item its vote counts on (absent on awards written before it). */
  noteableKey?: Key;
  createdAt: string;
  updatedAt: string;
}

/** The vote counters on an issue or merge request item (absent: 0). */
export type WithVotes = { upvotes?: number; downvotes?: number };

/**
 * What an award hangs on, for the writes: the noteable it is on or under (an issue or a merge
 * request: its liveness, its vote counters) and, for a note's award, the note.
 */
export interface Awardable extends AwardableKeyed {
  /** The awardable's global id. */
  id: number;
  noteable: Noteable;
  /** A note's award: the note's iid-scoped position (its key is checked in the transaction). */
  note?: { id: number };
}

/**
 * A noteable (an issue, a merge request) as an awardable.
 * @example
 * const awardable = noteableAwardable(issueNoteable(issue));
 */
export const noteableAwardable = (noteable: Noteable): Awardable => ({ type: noteable.type, projectId: noteable.projectId, localId: noteable.iid, id: noteable.id, noteable });

/** A note of a noteable as an awardable. */
export const noteAwardable = (noteable: Noteable, note: { id: number }): Awardable => ({
  type: 'Note',
  projectId: noteable.projectId,
  localId: note.id,
  id: note.id,
  noteable,
  note: { id: note.id },
});

/** Why an award write did not happen. */
export type AwardWriteFailure = 'project_gone' | 'awardable_gone' | 'taken' | 'award_gone';

export const awardFromItem = (item: Item): AwardEmoji => entityFields(item) as AwardEmoji;

const keyed = (award: AwardEmoji): AwardableKeyed => ({ type: award.awardableType, projectId: award.projectId, localId: award.localId });

/**
 * An award's item: its key and its place among its user's awards (GSI2 `USER_AWARDS#<userId>`,
 * read only when the user is deleted: its awards move to the ghost user or are deleted).
 */
const awardToItem = (award: AwardEmoji): Item => ({
  ...issueKeys.award(keyed(award), award.id),
  ...issueIndexKeys.userAward(award.userId, award.id),
  type: 'AwardEmoji',
  ...award,
});

/** Internal: the counter a name moves (only an issue's or merge request's own `thumbsup`/`thumbsdown`). */
function counterOf(awardable: Pick<AwardableKeyed, 'type'>, name: string): VoteCounter | undefined {
  if (awardable.type === 'Note') return undefined;
  return name === 'thumbsup' ? 'upvotes' : name === 'thumbsdown' ? 'downvotes' : undefined;
}

/** Internal: a note's award checks the note is still there. */
function notePart(awardable: Awardable): TransactItem | undefined {
  if (!awardable.note) return undefined;
  const Key = noteableKeys.note(awardable.noteable, awardable.note.id);
  return { ConditionCheck: { TableName: tableName(), Key, ConditionExpression: 'attribute_exists(PK)' } };
}

/** One award of an awardable (consistent read); `undefined` when none. */
export async function getAward(awardable: AwardableKeyed, awardId: number): Promise<AwardEmoji | undefined> {
  if (!isId(awardId)) return undefined;
  return getEntity(issueKeys.award(awardable, awardId), awardFromItem);
}

/** The awards of an awardable, by id, as a collection the route pages. */
export const awardsCollection = (awardable: AwardableKeyed) => ({ collection: issueCollections.awards(awardable), ascending: true, select: awardFromItem });

/**
 * Adds an award while the project is live, the issue or merge request there and not deleted (and
 * the note there): the award, its name claim, and its vote counter, in one transaction.
 */
export async function insertAward(awardable: Awardable, award: AwardEmoji): Promise<AwardWriteFailure | undefined> {
  return transactOr<AwardWriteFailure>(
    {
      project: projectIsLive(award.projectId),
      noteable: votePart(awardable.noteable, counterOf(awardable, award.name), 1),
      note: notePart(awardable),
      name: putClaim(issueKeys.awardName(awardable, award.userId, award.name), { awardId: award.id }),
      award: { Put: { TableName: tableName(), Item: awardToItem(award), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['project', 'project_gone'],
      ['noteable', 'awardable_gone'],
      ['note', 'awardable_gone'],
      ['name', 'taken'],
    ],
    'award_gone',
  );
}

/**
 * Deletes an award with its name claim and its vote, conditioned on the award existing,
 * so two racing deletes change the counter once.
 */
export async function removeAward(awardable: Awardable, award: AwardEmoji): Promise<AwardWriteFailure | undefined> {
  return transactOr<AwardWriteFailure>(
    {
      award: { Delete: { TableName: tableName(), Key: issueKeys.award(keyed(award), award.id), ConditionExpression: 'attribute_exists(PK)' } },
      name: { Delete: { TableName: tableName(), Key: issueKeys.awardName(keyed(award), award.userId, award.name) } },
      noteable: votePart(awardable.noteable, counterOf(awardable, award.name), -1),
    },
    [
      ['award', 'award_gone'],
      ['noteable', 'awardable_gone'],
    ],
    'award_gone',
  );
}

/** Why a change to an award of a user being deleted did not happen. */
export type UserAwardFailure = 'award_gone' | 'project_gone' | 'awardable_gone' | 'taken';

/** Internal: the award as read, still `award.userId`'s. */
const stillTheirs = (award: AwardEmoji) => ({ ':from': award.userId });

/**
 * Moves an award to another user (`toUserId`: the ghost user of a deleted one, GitLab's
 * `migrate_award_emoji`): its `userId` and its place among the user's awards, and its name claim
 * (the old user's deleted, the new user's put `attribute_not_exists`), in one transaction
 * conditioned on the award still being `award.userId`'s and its project live. The vote counters
 * do not change (the vote stays). `taken` when `toUserId` already holds that name on the
 * awardable (the award is then the caller's to delete, as GitLab's unique index would refuse it).
 */
export async function moveAward(award: AwardEmoji, toUserId: number): Promise<UserAwardFailure | undefined> {
  const index = issueIndexKeys.userAward(toUserId, award.id);
  return transactOr<UserAwardFailure>(
    {
      project: projectIsLive(award.projectId),
      award: {
        Update: {
          TableName: tableName(),
          Key: issueKeys.award(keyed(award), award.id),
          UpdateExpression: 'SET userId = :to, GSI2PK = :pk, GSI2SK = :sk',
          ConditionExpression: 'attribute_exists(PK) AND userId = :from',
          ExpressionAttributeValues: { ...stillTheirs(award), ':to': toUserId, ':pk': index.GSI2PK, ':sk': index.GSI2SK },
        },
      },
      previous_name: { Delete: { TableName: tableName(), Key: issueKeys.awardName(keyed(award), award.userId, award.name) } },
      name: putClaim(issueKeys.awardName(keyed(award), toUserId, award.name), { awardId: award.id }),
    },
    [
      ['project', 'project_gone'],
      ['award', 'award_gone'],
      ['name', 'taken'],
    ],
    'award_gone',
  );
}

/**
 * Deletes an award of a user being deleted with its name claim, conditioned on it still being
 * `award.userId`'s; `voted`, the live issue or merge request of its own `thumbsup`/`thumbsdown`,
 * loses the vote in the same transaction (`awardable_gone` when it was deleted meanwhile).
 * Without it (a note's award, or a deleted issue, whose counters nothing shows) the award goes alone.
 */
export async function removeUserAward(award: AwardEmoji, voted?: VotedItem): Promise<UserAwardFailure | undefined> {
  const counter = counterOf({ type: award.awardableType }, award.name);
  return transactOr<UserAwardFailure>(
    {
      award: {
        Delete: {
          TableName: tableName(),
          Key: issueKeys.award(keyed(award), award.id),
          ConditionExpression: 'attribute_exists(PK) AND userId = :from',
          ExpressionAttributeValues: stillTheirs(award),
        },
      },
      name: { Delete: { TableName: tableName(), Key: issueKeys.awardName(keyed(award), award.userId, award.name) } },
      noteable: voted && counter ? votePart(voted, counter, -1) : undefined,
    },
    [
      ['award', 'award_gone'],
      ['noteable', 'awardable_gone'],
    ],
    'award_gone',
  );
}

/**
 * Data migration: gives every award of a project written before the user index existed its place
 * among its user's awards (GSI2 `USER_AWARDS#<userId>`), idempotently (each update conditioned on
 * the award still being there).
 * @returns how many awards it indexed.
 */
export async function indexProjectAwardUsers(projectId: number): Promise<number> {
  let indexed = 0;
  for await (const item of queryCollection(issueCollections.projectAwardItems(projectId))) {
    if (item.GSI2PK) continue;
    const award = awardFromItem(item);
    const written = await addIndexEntry({ PK: String(item.PK), SK: String(item.SK) }, issueIndexKeys.userAward(award.userId, award.id));
    if (written) indexed++;
  }
  return indexed;
}
