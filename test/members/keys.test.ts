/**
 * The members feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/members/store/keys.ts`): an access request lives in its project's or group's partition,
 * which the project and group deletions sweep whole (so deleting either removes its requests).
 */
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { accessRequestCollections, accessRequestKeys, keySpace } from '../../shared/members/store/keys';
import { describeKeySpace } from '../support/key-space';

const tableKeys = {
  request: [() => accessRequestKeys.request({ kind: 'project', id: 7 }, 12), () => accessRequestKeys.request({ kind: 'group', id: 3 }, 13)],
} satisfies Record<keyof typeof accessRequestKeys, Array<() => Key>>;

const collections = {
  requests: [() => accessRequestCollections.requests({ kind: 'project', id: 7 }), () => accessRequestCollections.requests({ kind: 'group', id: 3 })],
} satisfies Record<keyof typeof accessRequestCollections, Array<() => Collection>>;

describeKeySpace({
  feature: 'members',
  keySpace,
  keys: { name: 'accessRequestKeys', builders: accessRequestKeys, samples: tableKeys },
  collections: { name: 'accessRequestCollections', builders: accessRequestCollections, samples: collections },
  partitions: ['PROJECT#', 'NAMESPACE#'],
  outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
});
