/**
 * Writes of notification settings: the caller's own (the route found the group or project the
 * caller may read). Bad input changes nothing: the level and the notification email are checked
 * before anything is written (GitLab writes the level even when the email is refused, then
 * answers the email's 400).
 */
import type { User } from '../users';
import { BadRequestError, NotFoundError, ValidationError } from '../platform/http/errors';
import { verifiedEmail } from './queries';
import { getSetting, LEVELS, writeSetting, type Level, type NotificationSetting, type SettingChanges } from './store/settings';
import type { SettingSource } from './store/keys';

/** GitLab's enum assignment: an unknown level is `'<value>' is not a valid level` (400, `render_api_error!`). */
export function checkLevel(level: string | undefined): Level | undefined {
  if (level === undefined) return undefined;
  if (!(LEVELS as readonly string[]).includes(level)) throw new BadRequestError(`'${level}' is not a valid level`);
  return level as Level;
}

/**
 * Sets the given fields of the caller's setting for `source` and returns it as now stored; with a
 * notification email (global only), which must be one of the caller's verified emails (GitLab's
 * `notification_email_verified`: 400 `{"message":{"notification_email":["must be an email you have verified"]}}`);
 * blank resets it to the primary email.
 */
export async function updateSetting(user: User, source: SettingSource, changes: SettingChanges): Promise<NotificationSetting> {
  if (changes.notificationEmail) {
    const verified = await verifiedEmail(user, changes.notificationEmail);
    if (!verified) throw new ValidationError({ notification_email: ['must be an email you have verified'] });
    changes = { ...changes, notificationEmail: verified === user.email ? null : verified };
  } else if (changes.notificationEmail === '') changes = { ...changes, notificationEmail: null };
  const nothing = changes.level === undefined && changes.notificationEmail === undefined && Object.keys(changes.events ?? {}).length === 0;
  if (!nothing && (await writeSetting(user.id, source, changes)) === 'user_gone') throw new NotFoundError('User');
  return getSetting(user.id, source);
}
