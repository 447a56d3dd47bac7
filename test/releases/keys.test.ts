/**
 * The releases feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/releases/store/keys.ts`), and its store answers results: a second release of a tag is
 * `'exists'`, a project gone `'project_gone'`, an edit of a changed release `'conflict'`, as the
 * named conditions of their transactions fail.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { type Collection, type Key } from '../../shared/platform/dynamo/keys';
import { projectCollections } from '../../shared/projects';
import { keySpace, releaseCollections, releaseIndexKeys, releaseKeys } from '../../shared/releases/store/keys';
import { insertRelease, replaceRelease, type NewRelease } from '../../shared/releases/store/releases';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { describeKeySpace } from '../support/key-space';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';

const ddbMock = useMockedTable('release-keys-test');

const tableKeys = {
  release: [() => releaseKeys.release(7, 'v1.0.0'), () => releaseKeys.release(7, 'group/v2')],
} satisfies Record<keyof typeof releaseKeys, Array<() => Key>>;

const indexKeys = {
  byReleasedAt: () => releaseIndexKeys.byReleasedAt(7, '2026-01-01T00:00:00.000Z', 3),
  byCreatedAt: () => releaseIndexKeys.byCreatedAt(7, '2026-01-01T00:00:00.000Z', 3),
} satisfies Record<keyof typeof releaseIndexKeys, () => Record<string, string>>;

const collections = {
  byReleasedAt: () => releaseCollections.byReleasedAt(7),
  byCreatedAt: () => releaseCollections.byCreatedAt(7),
  projectReleases: () => releaseCollections.projectReleases(7),
} satisfies Record<keyof typeof releaseCollections, () => Collection>;

const release: NewRelease = {
  projectId: 7,
  tag: 'v1.0.0',
  name: 'v1.0.0',
  description: null,
  sha: 'a'.repeat(40),
  authorId: 1,
  createdAt: '2026-01-02T00:00:00.000Z',
  releasedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  milestoneIds: [],
  links: [{ name: 'bin', url: 'https://example.com/bin', linkType: 'other', createdAt: '2026-01-02T00:00:00.000Z' }],
};

describeKeySpace(
  {
    feature: 'releases',
    keySpace,
    keys: { name: 'releaseKeys', builders: releaseKeys, samples: tableKeys },
    indexKeys: { name: 'releaseIndexKeys', builders: releaseIndexKeys, samples: indexKeys },
    collections: { name: 'releaseCollections', builders: releaseCollections, samples: collections },
    partitions: ['PROJECT#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it("lies in its project's partition, which a project's deletion removes whole (with the release's index entries)", () => {
      // Prepare
      const partition = projectCollections.projectPartition(7);
      const key = releaseKeys.release(7, 'v1.0.0');
      // Assess
      expect(key.PK).toBe(partition.partitionValue);
      expect(key.SK.startsWith(partition.prefix ?? '')).toBe(true);
      expect(releaseKeys.release(8, 'v1.0.0').PK).not.toBe(partition.partitionValue);
    });

    it('writes a release with its index entries, conditioned on no release of its tag, and draws ids only from the sequences it declares', async () => {
      // Prepare
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(5));
      ddbMock.on(TransactWriteCommand).resolves({});
      // Act
      const written = await insertRelease(release);
      // Assess
      const [project, put] = writerOperations(ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input);
      expect(project.ConditionCheck).toBeDefined();
      expect(put.Put).toMatchObject({
        ConditionExpression: 'attribute_not_exists(PK)',
        Item: { PK: 'PROJECT#7', SK: 'RELEASE#v1.0.0', GSI1PK: 'RELEASES#7', GSI1SK: '2026-01-01T00:00:00.000Z#000000000005', GSI2PK: 'RELEASES#7', type: 'Release' },
      });
      expect(written).toMatchObject({ id: 5, version: 1, links: [{ id: 5, name: 'bin' }] });
      const drawn = sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input));
      expect(drawn).toEqual(keySpace.sequences);
    });

    it.each([
      ['project_gone', ['ConditionalCheckFailed', 'None']],
      ['exists', ['None', 'ConditionalCheckFailed']],
    ])('answers %s when that condition fails', async (result, codes) => {
      // Prepare
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(5));
      ddbMock.on(TransactWriteCommand).rejects(cancelled(codes));
      // Act / Assess
      await expect(insertRelease(release)).resolves.toBe(result);
    });

    it('answers conflict when the release changed since it was read', async () => {
      // Prepare
      ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed']));
      const stored = { ...release, id: 5, version: 2, links: [] };
      // Act / Assess
      await expect(replaceRelease(stored, { ...stored, name: 'renamed' })).resolves.toBe('conflict');
      const put = writerOperations(ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input)[0].Put!;
      expect(put.ExpressionAttributeValues).toEqual({ ':version': 2 });
      expect(put.Item).toMatchObject({ name: 'renamed', version: 3 });
    });
  },
);
