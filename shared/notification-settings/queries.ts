/** Reads of notification settings: the caller's own, at their defaults when never set. */
import { listEmails, type User } from '../users';
import { getSetting, type NotificationSetting } from './store/settings';
import type { SettingSource } from './store/keys';

/**
 * The caller's verified email equal (case-insensitively) to `email`, as the user has it, or
 * `undefined`: its primary email or one of its secondary emails (which have no confirmation here,
 * so all count as verified).
 */
export async function verifiedEmail(user: User, email: string): Promise<string | undefined> {
  const wanted = email.toLowerCase();
  if (user.email.toLowerCase() === wanted) return user.email;
  return (await listEmails(user.id)).find((secondary) => secondary.email.toLowerCase() === wanted)?.email;
}

/** The caller's setting for a group or a project. */
export const settingOf = (user: User, source: SettingSource): Promise<NotificationSetting> => getSetting(user.id, source);

/**
 * The caller's global setting; a notification email that is no longer one of the caller's emails
 * (a secondary email deleted since) reads as unset, the primary email (GitLab resets it when the
 * email is deleted).
 */
export async function globalSettingOf(user: User): Promise<NotificationSetting> {
  const setting = await getSetting(user.id, { kind: 'global' });
  if (setting.notificationEmail && !(await verifiedEmail(user, setting.notificationEmail))) return { ...setting, notificationEmail: null };
  return setting;
}
