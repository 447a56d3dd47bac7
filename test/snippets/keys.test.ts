/**
 * The snippets feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/snippets/store/keys.ts`): a snippet lives in its project's partition, which the
 * project's deletion sweeps whole; its contents under `snippets/<projectId>/<snippetId>/` in S3.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { keySpace, snippetCollections, snippetKeys, snippetObjects } from '../../shared/snippets/store/keys';
import { newSnippetId } from '../../shared/snippets/store/snippets';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { describeKeySpace } from '../support/key-space';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('snippet-keys-test');

const tableKeys = {
  snippet: () => snippetKeys.snippet(7, 12),
} satisfies Record<keyof typeof snippetKeys, () => Key>;

const collections = {
  snippets: () => snippetCollections.snippets(7),
} satisfies Record<keyof typeof snippetCollections, () => Collection>;

describeKeySpace(
  {
    feature: 'snippets',
    keySpace,
    keys: { name: 'snippetKeys', builders: snippetKeys, samples: tableKeys },
    collections: { name: 'snippetCollections', builders: snippetCollections, samples: collections },
    partitions: ['PROJECT#'],
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
    });
  },
);
