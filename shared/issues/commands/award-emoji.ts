/**
 * Award emoji writes (GitLab's `AwardEmojis::AddService` and the API's delete): whoever can read
 * the issue or merge request (the route found it, confidential rules included) awards an emoji to
 * it or to one of its user notes; `name` must be an emoji name GitLab knows (aliases such as `+1`
 * are stored as their name); one award per user, name and awardable. GitLab answers each refusal of an award as
 * `404 Award Emoji <reason> Not Found`. Only the award's user or an admin deletes it (GitLab's
 * `unauthorized!`: 401).
 */
import { isAdmin } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, NotFoundError, UnauthorizedError } from '../../platform/http/errors';
import type { User } from '../../users';
import { insertAward, removeAward, type AwardEmoji, type Awardable, type AwardWriteFailure } from '../store/award-emoji';

/** GitLab's names of awardables, for `404 … Not Found` when one went meanwhile. */
const AWARDABLE_NAMES: Record<Awardable['type'], string> = { Issue: 'Issue', MergeRequest: 'Merge Request', Note: 'Note' };

/** GitLab's name of an awardable's parent in `404 … Not Found` when it went meanwhile. */
function failWith(awardable: Awardable, failure: AwardWriteFailure): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'awardable_gone') throw new NotFoundError(AWARDABLE_NAMES[awardable.type]);
  if (failure === 'taken') throw new NotFoundError('Award Emoji Name has already been taken');
  throw new NotFoundError('Award Emoji');
}

/**
 * Awards `name` to an issue, a merge request or a note by `user`, counting an issue's or merge
 * request's `thumbsup`/`thumbsdown` in its `upvotes`/`downvotes` in the same transaction.
 * @throws NotFoundError `Award Emoji …` for a name GitLab does not know, a system note, or a name
 *   the user already awarded there; `Issue` / `Merge Request` / `Note` when it went meanwhile.
 * @example
 * const award = await awardEmoji(awardable, user, 'thumbsup');
 */
export async function awardEmoji(awardable: Awardable, user: User, name: string, options: { system?: boolean } = {}): Promise<AwardEmoji> {
  // GitLab: a system note is not `emoji_awardable?`.
  if (options.system) throw new NotFoundError('Award Emoji Awardable cannot be awarded emoji');
  // The emoji names (~200 KB of data) are loaded by the first award a process makes, not at cold start.
  const { emojiName } = await import('./award-emoji-names');
  const stored = emojiName(name);
  if (!stored) throw new NotFoundError('Award Emoji Name is not a valid emoji name');
  const now = new Date().toISOString();
  const award: AwardEmoji = {
    id: await nextId('award_emoji'),
    projectId: awardable.projectId,
    name: stored,
    userId: user.id,
    awardableType: awardable.type,
    awardableId: awardable.id,
    localId: awardable.localId,
    ...(awardable.type === 'Note' ? {} : { noteableKey: awardable.noteable.item.key }),
    createdAt: now,
    updatedAt: now,
  };
  const failure = await insertAward(awardable, award);
  if (failure === 'award_gone') throw new ConflictError('Award id already in use; try again');
  if (failure) failWith(awardable, failure);
  return award;
}

/** Deletes an award: its user or an admin (401 otherwise); an issue's vote leaves its counter with it. */
export async function deleteAward(awardable: Awardable, user: User, award: AwardEmoji): Promise<void> {
  if (award.userId !== user.id && !isAdmin(user)) throw new UnauthorizedError();
  const failure = await removeAward(awardable, award);
  // Deleted by a racing request meanwhile: GitLab's `find` would not find it.
  if (failure === 'award_gone') throw new NotFoundError('Award Emoji');
  if (failure) failWith(awardable, failure);
}
