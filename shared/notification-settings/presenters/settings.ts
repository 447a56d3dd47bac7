/**
 * GitLab's `NotificationSetting` entity (`level`; `events` only at the `custom` level, each event's
 * flag as stored: null until set, but for the columns with a default) and `GlobalNotificationSetting`
 * (with `notification_email`: the one set, else the primary email).
 */
import type { NotificationSetting } from '../store/settings';

export function presentSetting(setting: NotificationSetting) {
  return { level: setting.level, ...(setting.level === 'custom' ? { events: setting.events } : {}) };
}

export function presentGlobalSetting(setting: NotificationSetting, primaryEmail: string) {
  return { ...presentSetting(setting), notification_email: setting.notificationEmail || primaryEmail };
}
