/** Parameters of the notification settings routes (GitLab's `lib/api/notification_settings.rb`). */
import * as z from 'zod';
import { idParam, p } from '../../platform/http/params';
import { EMAIL_EVENTS, type EmailEvent, type SettingChanges } from '../store/settings';

/** `optional <event>, type: Boolean` for each of `NotificationSetting::EMAIL_EVENTS`. */
const eventParams = Object.fromEntries(EMAIL_EVENTS.map((event) => [event, p.bool()])) as Record<EmailEvent, ReturnType<typeof p.bool>>;

/** Any string: the level is checked against the enum by the route (GitLab's `ArgumentError`, a 400 of its own). */
const level = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().optional());

export const sourceParams = z.object({ ...idParam });
export const updateSourceParams = z.object({ ...idParam, level, ...eventParams });
/** `notification_email` blank resets it to the primary email (GitLab sets the user's column to blank). */
export const updateGlobalParams = z.object({ level, notification_email: z.preprocess((value) => (value === null ? '' : value), z.string().optional()), ...eventParams });

/** The event flags given. */
export function eventChanges(params: Partial<Record<EmailEvent, boolean | undefined>>): SettingChanges['events'] {
  return Object.fromEntries(EMAIL_EVENTS.flatMap((event) => (params[event] === undefined ? [] : [[event, params[event]]])));
}
