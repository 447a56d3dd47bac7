/**
 * The Terraform states feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/terraform-states/store/keys.ts`): a state and its versions live in their project's
 * partition, which the project's deletion sweeps whole; the versions' contents under
 * `terraform-states/<projectId>/<uuid>/` in S3. Versions are named by the state's uuid, never by
 * its name: a name may hold `#`.
 */
import { expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { keySpace, terraformStateCollections, terraformStateKeys, terraformStateObjects } from '../../shared/terraform-states/store/keys';
import { describeKeySpace } from '../support/key-space';

const tableKeys = {
  state: [() => terraformStateKeys.state(7, 'production'), () => terraformStateKeys.state(7, 'env/prod#1')],
  version: () => terraformStateKeys.version(7, 'a1b2', 12),
} satisfies Record<keyof typeof terraformStateKeys, (() => Key) | Array<() => Key>>;

const collections = {
  versions: () => terraformStateCollections.versions(7, 'a1b2'),
} satisfies Record<keyof typeof terraformStateCollections, () => Collection>;

describeKeySpace(
  {
    feature: 'terraform-states',
    keySpace,
    keys: { name: 'terraformStateKeys', builders: terraformStateKeys, samples: tableKeys },
    collections: { name: 'terraformStateCollections', builders: terraformStateCollections, samples: collections },
    partitions: ['PROJECT#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('keeps one state’s versions apart from another’s, in serial order', () => {
      const versions = terraformStateCollections.versions(7, 'a1b2');
      expect(terraformStateKeys.version(7, 'a1b2', 2).SK.startsWith(versions.prefix!)).toBe(true);
      expect(terraformStateKeys.version(7, 'a1b2c3', 2).SK.startsWith(versions.prefix!)).toBe(false);
      expect(terraformStateKeys.version(7, 'a1b2', 10).SK > terraformStateKeys.version(7, 'a1b2', 9).SK).toBe(true);
    });

    it('keeps every content under its state and its project (7 apart from 70)', () => {
      const content = terraformStateObjects.version(7, 'a1b2', 3, 'abc');
      expect(content.startsWith(terraformStateObjects.statePrefix(7, 'a1b2'))).toBe(true);
      expect(terraformStateObjects.statePrefix(7, 'a1b2').startsWith(terraformStateObjects.projectPrefix(7))).toBe(true);
      expect(terraformStateObjects.version(70, 'a1b2', 3, 'abc').startsWith(terraformStateObjects.projectPrefix(7))).toBe(false);
    });
  },
);
