/**
 * The snippets feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/snippets/store/keys.ts`): a snippet lives in its project's partition, which the
 * project's deletion sweeps whole; its contents under `snippets/<projectId>/<snippetId>/` in S3.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import type { Key } from '../../shared/platform/dynamo/keys';
import { keySpace, snippetCollections, snippetIndexKeys, snippetKeys, snippetObjects } from '../../shared/snippets/store/keys';
import { newSnippetId } from '../../shared/snippets/store/snippets';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { describeKeySpace } from '../support/key-space';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('snippet-keys-test');

const tableKeys = {
  snippet: [() => snippetKeys.snippet(7, 12), () => snippetKeys.snippet(null, 12)],
} satisfies Record<keyof typeof snippetKeys, Array<() => Key>>;

const indexKeys = {
  personal: [() => snippetIndexKeys.personal({ id: 12, authorId: 3, visibility: 'public' }), () => snippetIndexKeys.personal({ id: 12, authorId: 3, visibility: 'private' })],
  visibility: () => snippetIndexKeys.visibility({ id: 12, authorId: 3, visibility: 'internal' }),
} satisfies Record<keyof typeof snippetIndexKeys, unknown>;

const collections = {
  snippets: () => snippetCollections.snippets(7),
  authored: () => snippetCollections.authored(3),
  visible: [() => snippetCollections.visible('public'), () => snippetCollections.visible('private', 3)],
  all: () => snippetCollections.all(),
} satisfies Record<keyof typeof snippetCollections, unknown>;

describeKeySpace(
  {
    feature: 'snippets',
    keySpace,
    keys: { name: 'snippetKeys', builders: snippetKeys, samples: tableKeys },
    indexKeys: { name: 'snippetIndexKeys', builders: snippetIndexKeys, samples: indexKeys, sortKeysOnly: [] },
    collections: { name: 'snippetCollections', builders: snippetCollections, samples: collections, wholePartition: ['authored', 'visible', 'all'] },
    partitions: ['PROJECT#', 'SNIPPET#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('draws ids only from the sequences it declares', async () => {
      // Prepare
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(3));
      // Act
      await newSnippetId();
      // Assess
      expect(sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input))).toEqual(keySpace.sequences);
    });

    it('keeps every content under its snippet and its project (7 apart from 70)', () => {
      const content = snippetObjects.content(7, 12, 'abc');
      expect(content.startsWith(snippetObjects.snippetPrefix(7, 12))).toBe(true);
      expect(snippetObjects.snippetPrefix(7, 12).startsWith(snippetObjects.projectPrefix(7))).toBe(true);
      expect(snippetObjects.content(70, 1, 'abc').startsWith(snippetObjects.projectPrefix(7))).toBe(false);
      expect(snippetObjects.content(7, 120, 'abc').startsWith(snippetObjects.snippetPrefix(7, 12))).toBe(false);
      expect(snippetObjects.content(null, 12, 'abc').startsWith(snippetObjects.snippetPrefix(null, 12))).toBe(true);
      expect(snippetObjects.snippetPrefix(null, 12).startsWith('snippets/personal/')).toBe(true);
    });
  },
);
