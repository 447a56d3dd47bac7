/**
 * A user's status (GitLab's `Users::SetStatusService`, `UserStatus`): `PUT /user/status` sets every
 * field (a missing one is cleared), `PATCH` only those given. A request with an emoji, a message or
 * an availability sets the status (a blank emoji becomes `speech_balloon`; a blank availability
 * keeps the stored one, `not_set` for a new status); one with none of them removes the status, as
 * GitLab's service does (also a `PATCH` carrying only `clear_status_after`).
 */
import { NotFoundError, ValidationError } from '../../platform/http/errors';
import { changeUserAttribute, type User, type UserStatus } from '../store/users';

export const DEFAULT_STATUS_EMOJI = 'speech_balloon';

/** GitLab's `UserStatus::CLEAR_STATUS_QUICK_OPTIONS`, in milliseconds. */
export const CLEAR_STATUS_AFTER = {
  '30_minutes': 30 * 60_000,
  '3_hours': 3 * 3_600_000,
  '8_hours': 8 * 3_600_000,
  '1_day': 86_400_000,
  '3_days': 3 * 86_400_000,
  '7_days': 7 * 86_400_000,
  '30_days': 30 * 86_400_000,
} as const;

export type ClearStatusAfter = keyof typeof CLEAR_STATUS_AFTER;

export interface StatusInput {
  emoji?: string;
  message?: string;
  availability?: string;
  clear_status_after?: ClearStatusAfter;
}

const MESSAGE_LIMIT = 100;
/** An emoji name's shape (GitLab checks it against its emoji list, which lives with award emoji: see README). */
const EMOJI_NAME = /^[a-z0-9_+-]{1,64}$/;

/** The status a user shows now: none when it was never set, removed, or cleared by its `clear_status_at`. */
export function currentStatus(user: User, now = new Date()): UserStatus | undefined {
  const status = user.status;
  if (!status) return undefined;
  return status.clearStatusAt !== null && Date.parse(status.clearStatusAt) <= now.getTime() ? undefined : status;
}

/**
 * The status `input` makes of `user`'s (`partial`: PATCH, only the given fields change), or
 * `undefined` when it removes the status; throws GitLab's validation answer for a bad field.
 */
export function nextStatus(user: User, input: StatusInput, partial: boolean, now = new Date()): UserStatus | undefined {
  const present = (value: string | undefined) => value !== undefined && value.trim() !== '';
  if (!present(input.emoji) && !present(input.message) && !present(input.availability)) return undefined;
  const errors: Record<string, string[]> = {};
  const emoji = present(input.emoji) ? input.emoji! : DEFAULT_STATUS_EMOJI;
  if (!EMOJI_NAME.test(emoji)) errors.emoji = ['does not exist'];
  if (input.message !== undefined && input.message.length > MESSAGE_LIMIT) errors.message = [`is too long (maximum is ${MESSAGE_LIMIT} characters)`];
  if (present(input.availability) && input.availability !== 'not_set' && input.availability !== 'busy') errors.availability = ['is not included in the list'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const previous = currentStatus(user, now);
  const clearStatusAt =
    input.clear_status_after !== undefined
      ? new Date(now.getTime() + CLEAR_STATUS_AFTER[input.clear_status_after]).toISOString()
      : partial
        ? (previous?.clearStatusAt ?? null)
        : null;
  return {
    emoji,
    message: input.message !== undefined ? input.message : partial ? (previous?.message ?? null) : null,
    availability: present(input.availability) ? (input.availability as UserStatus['availability']) : (previous?.availability ?? 'not_set'),
    clearStatusAt,
  };
}

/** Writes the status `input` makes of the stored one (or removes it); answers the status now stored, if any. */
export async function setUserStatus(user: User, input: StatusInput, partial: boolean): Promise<UserStatus | undefined> {
  const now = new Date();
  const changed = await changeUserAttribute(user, 'status', (current) => nextStatus(current, input, partial, now));
  if (changed === 'gone') throw new NotFoundError('User');
  return changed.value;
}
