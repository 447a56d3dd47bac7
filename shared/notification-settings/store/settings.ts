/**
 * Notification settings: one item per user and source (GitLab's `notification_settings` row, unique
 * on user and source), in the user's partition. A setting that was never written reads as its
 * default (GitLab's `find_or_initialize`): `participating` for the global one, `global` for a
 * group's or a project's. A write sets only the fields given (UpdateItem `SET`), so two concurrent
 * writes of different fields both hold; it is conditioned on the user being live, so a deletion
 * of the user (which marks it first, then sweeps its partition) leaves none behind.
 */
import { userIsLive } from '../../users';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { notificationSettingKeys, type SettingSource } from './keys';

/** GitLab's `NotificationSetting.level` enum. */
export const LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const;
export type Level = (typeof LEVELS)[number];

/** GitLab's `NotificationSetting::EMAIL_EVENTS` (CE), in its order: the events a `custom` level turns on and off. */
export const EMAIL_EVENTS = [
  'new_release', 'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request', 'change_reviewer_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project', 'merge_when_pipeline_succeeds',
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];

/** Internal: the attribute of an event's flag. */
const EVENT_ATTRIBUTE = 'event_';

/** The columns GitLab declares with a default (`moved_project`, `merge_when_pipeline_succeeds`); the others are null until set. */
const EVENT_DEFAULTS: Partial<Record<EmailEvent, boolean>> = { moved_project: true, merge_when_pipeline_succeeds: false };

export interface NotificationSetting {
  level: Level;
  /** The global setting's notification email (GitLab keeps it on the user); unset: the primary email. */
  notificationEmail?: string | null;
  events: Record<EmailEvent, boolean | null>;
}

/** The fields a write sets (those given). */
export type SettingChanges = Partial<Pick<NotificationSetting, 'level' | 'notificationEmail'>> & { events?: Partial<Record<EmailEvent, boolean>> };

const defaultLevel = (source: SettingSource): Level => (source.kind === 'global' ? 'participating' : 'global');

/** Internal: the setting an item holds, its absent fields at their defaults. */
function settingFromItem(source: SettingSource, item: Item | undefined): NotificationSetting {
  const fields = item ? entityFields(item) : {};
  return {
    level: (fields.level as Level | undefined) ?? defaultLevel(source),
    notificationEmail: (fields.notificationEmail as string | null | undefined) ?? null,
    events: Object.fromEntries(EMAIL_EVENTS.map((event) => [event, (fields[`${EVENT_ATTRIBUTE}${event}`] as boolean | undefined) ?? EVENT_DEFAULTS[event] ?? null])) as NotificationSetting['events'],
  };
}

/** A user's setting for a source, at its defaults when never written. */
export async function getSetting(userId: number, source: SettingSource): Promise<NotificationSetting> {
  const item = await getEntity(notificationSettingKeys.setting(userId, source), (found) => found);
  return settingFromItem(source, item);
}

/**
 * Writes the given fields of a user's setting for a source (creating the item on its first write),
 * atomically with a check that the user is live.
 */
export async function writeSetting(userId: number, source: SettingSource, changes: SettingChanges): Promise<'written' | 'user_gone'> {
  const key = notificationSettingKeys.setting(userId, source);
  const names: Record<string, string> = { '#type': 'type', '#userId': 'userId', '#source': 'source', '#createdAt': 'createdAt', '#updatedAt': 'updatedAt' };
  const now = new Date().toISOString();
  const values: Record<string, unknown> = { ':type': 'NotificationSetting', ':userId': userId, ':source': source, ':now': now };
  const sets = ['#type = :type', '#userId = :userId', '#source = :source', '#createdAt = if_not_exists(#createdAt, :now)', '#updatedAt = :now'];
  if (changes.level !== undefined) {
    names['#level'] = 'level';
    values[':level'] = changes.level;
    sets.push('#level = :level');
  }
  if (changes.notificationEmail !== undefined) {
    names['#email'] = 'notificationEmail';
    values[':email'] = changes.notificationEmail;
    sets.push('#email = :email');
  }
  // Each event is an attribute of its own (`event_<name>`), set on its own.
  Object.entries(changes.events ?? {}).forEach(([event, on], i) => {
    names[`#e${i}`] = `${EVENT_ATTRIBUTE}${event}`;
    values[`:e${i}`] = on;
    sets.push(`#e${i} = :e${i}`);
  });
  const failure = await transactOr(
    {
      user: userIsLive(userId),
      setting: { Update: { TableName: tableName(), Key: key, UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values } },
    },
    [['user', 'user_gone' as const]],
  );
  return failure ?? 'written';
}
