/**
 * A collection's sort-key prefix (`queryCollection`, `shared/platform/dynamo/query.ts`) is read as
 * the key range `BETWEEN prefix AND past` (`past`: the prefix with its last character advanced),
 * which DynamoDB Local serves as a range where it serves `begins_with` as a filter over the rest
 * of the partition. The one key of that range without the prefix is left out by the reader. Run on
 * the table the suite's runtime uses (DynamoDB Local here; LocalStack or AWS alike).
 */
import { describe, expect, it } from 'vitest';
import { putMany } from '../../shared/platform/dynamo/batch';
import { tableCollection, type Collection } from '../../shared/platform/dynamo/keys';
import { queryAll, queryCollection } from '../../shared/platform/dynamo/query';
import { isLocalRuntime } from '../support/api';
import { unique } from '../support/fixtures';

const sortKeys = (items: Array<Record<string, unknown>>) => items.map((item) => item.SK);

describe.runIf(isLocalRuntime())('a collection read by sort-key prefix', () => {
  it('holds exactly the keys that start with the prefix, in either order and across Query pages', async () => {
    // Prepare: keys around the range: the bound itself (`HOOK$`), shorter, longer, non-ASCII after the prefix.
    const pk = `TEST_PREFIX#${unique('p')}`;
    const inside = ['HOOK#000000000001', 'HOOK#000000000002', 'HOOK#é', 'HOOK#\u{1F600}'];
    await putMany(['HOOK', 'HOOK"', 'HOOK$', 'HOOKS', 'HOO', ...inside].map((SK) => ({ PK: pk, SK, type: 'Test' })), { journal: false });
    const collection: Collection = tableCollection(pk, 'HOOK#');

    // Act
    const ascending = await queryAll(collection);
    const descending = await queryAll(collection, false);
    const paged: Array<Record<string, unknown>> = [];
    for await (const item of queryCollection(collection, { pageSize: 1 })) paged.push(item);

    // Assess
    expect(sortKeys(ascending)).toEqual(inside);
    expect(sortKeys(descending)).toEqual([...inside].reverse());
    expect(sortKeys(paged)).toEqual(inside);
  });

  it('reads a prefix ending in a non-ASCII character with begins_with, as before', async () => {
    const pk = `TEST_PREFIX#${unique('p')}`;
    await putMany(['TAGé1', 'TAGé2', 'TAGê', 'TAGf'].map((SK) => ({ PK: pk, SK, type: 'Test' })), { journal: false });
    expect(sortKeys(await queryAll(tableCollection(pk, 'TAGé')))).toEqual(['TAGé1', 'TAGé2']);
  });
});
