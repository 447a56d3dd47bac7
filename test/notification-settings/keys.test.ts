/**
 * The notification settings feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/notification-settings/store/keys.ts`): a user's settings live in the user's partition,
 * which the user's deletion sweeps whole.
 */
import { notificationSettingKeys, keySpace } from '../../shared/notification-settings/store/keys';
import type { Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';

const tableKeys = {
  setting: [() => notificationSettingKeys.setting(7, { kind: 'global' }), () => notificationSettingKeys.setting(7, { kind: 'group', id: 3 }), () => notificationSettingKeys.setting(7, { kind: 'project', id: 12 })],
} satisfies Record<keyof typeof notificationSettingKeys, Array<() => Key> | (() => Key)>;

describeKeySpace({
  feature: 'notification settings',
  keySpace,
  keys: { name: 'notificationSettingKeys', builders: notificationSettingKeys, samples: tableKeys },
  collections: { name: 'notificationSettingCollections', builders: {}, samples: {} },
  partitions: ['USER#'],
  outside: { PK: 'USER#7', SK: 'WIDGET#000000000001' },
});
