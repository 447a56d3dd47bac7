/** Award emoji reads: the awards of an issue or a note the caller can read (the route found it). */
import { NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { awardsCollection, getAward, type AwardEmoji } from '../store/award-emoji';
import type { AwardableKeyed } from '../store/keys';

/** One award of a readable awardable; 404 `Award Emoji Not Found` when absent (or another awardable's). */
export async function findAwardOrNotFound(awardable: AwardableKeyed, awardId: number): Promise<AwardEmoji> {
  const award = await getAward(awardable, awardId);
  if (!award) throw new NotFoundError('Award Emoji');
  return award;
}

/** The awards of a readable awardable, oldest first, for `paginate` (one Query of its range). */
export const awardableAwards = (awardable: AwardableKeyed): CollectionSource<AwardEmoji> => awardsCollection(awardable);
