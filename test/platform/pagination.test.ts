import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';
import { userCollections, userIndexKeys, userKeys } from '../../shared/users/store/keys';
import type { Item } from '../../shared/platform/dynamo/query';
import { ParamError } from '../../shared/platform/http/errors';
import { countOnePageMore, decodeCursor, encodeCursor, mappedStream, mergedCollections, paginate, paginateArray, paginationParams, type PageLinkBase, type PaginationParams, type StreamSource } from '../../shared/platform/http/pagination';
import { parseParams } from '../../shared/platform/http/params';

const BASE = 'http://localhost:3000/api/v4/users';
const ddbMock = mockClient(DynamoDBDocumentClient);

/** Internal: the page URL the headers should link to, with its query written out by hand. */
const url = (query: string) => `${BASE}?${query}`;

/** Internal: runs `act` with `LIST_COUNT_LIMIT` set to `limit`, then restores the default. */
async function withListCountLimit<T>(limit: number, act: () => Promise<T>): Promise<T> {
  process.env.LIST_COUNT_LIMIT = String(limit);
  resetConfig();
  try {
    return await act();
  } finally {
    delete process.env.LIST_COUNT_LIMIT;
    resetConfig();
  }
}

/** Internal: parses raw pagination parameters exactly as a route schema would. */
const pagination = (raw: Record<string, unknown>): PaginationParams =>
  parseParams(z.object(paginationParams), raw);

describe('paginationParams', () => {
  it('defaults to page 1 of 20', () => {
    // Act
    const params = pagination({});

    // Assess
    expect(params).toEqual({ page: 1, per_page: 20 });
  });

  it.each([
    [{ per_page: '101' }, 1, 100],
    [{ per_page: '1000' }, 1, 100],
    [{ per_page: '100' }, 1, 100],
    [{ per_page: '0' }, 1, 20],
    [{ per_page: '-5' }, 1, 20],
    [{ per_page: '' }, 1, 20],
    [{ page: '0' }, 1, 20],
    [{ page: '-2' }, 1, 20],
    [{ page: '3', per_page: '7' }, 3, 7],
  ])('reads %j as page %i, per_page %i', (raw, page, perPage) => {
    // Act
    const params = pagination(raw);

    // Assess
    expect(params.page).toBe(page);
    expect(params.per_page).toBe(perPage);
  });

  it('rejects a page that is not a number', () => {
    // Act & Assess
    expect(() => pagination({ page: 'two' })).toThrow(ParamError);
    expect(() => pagination({ page: 'two' })).toThrow(JSON.stringify({ error: 'page is invalid' }));
  });

  it('rejects an unknown pagination mode', () => {
    // Act & Assess
    expect(() => pagination({ pagination: 'cursor' })).toThrow(JSON.stringify({ error: 'pagination does not have a valid value' }));
  });
});

describe('paginateArray: GitLab offset headers', () => {
  const all = [1, 2, 3, 4, 5];
  const link: PageLinkBase = { url: BASE, query: {} };

  it('sets every header of a middle page, with prev/next/first/last links in that order', () => {
    // Act
    const page = paginateArray({ page: 2, per_page: 2 }, link, all);

    // Assess
    expect(page.items).toEqual([3, 4]);
    expect(page.headers).toEqual({
      'X-Per-Page': '2',
      'X-Page': '2',
      'X-Next-Page': '3',
      'X-Prev-Page': '1',
      'X-Total': '5',
      'X-Total-Pages': '3',
      Link: [
        `<${url('page=1&per_page=2')}>; rel="prev"`,
        `<${url('page=3&per_page=2')}>; rel="next"`,
        `<${url('page=1&per_page=2')}>; rel="first"`,
        `<${url('page=3&per_page=2')}>; rel="last"`,
      ].join(', '),
    });
  });

  it('leaves X-Prev-Page empty and links no prev on the first page', () => {
    // Act
    const page = paginateArray({ page: 1, per_page: 2 }, link, all);

    // Assess
    expect(page.items).toEqual([1, 2]);
    expect(page.headers['X-Prev-Page']).toBe('');
    expect(page.headers['X-Next-Page']).toBe('2');
    expect(page.headers.Link).toBe(
      [
        `<${url('page=2&per_page=2')}>; rel="next"`,
        `<${url('page=1&per_page=2')}>; rel="first"`,
        `<${url('page=3&per_page=2')}>; rel="last"`,
      ].join(', '),
    );
  });

  it('leaves X-Next-Page empty and links no next on the last page', () => {
    // Act
    const page = paginateArray({ page: 3, per_page: 2 }, link, all);

    // Assess
    expect(page.items).toEqual([5]);
    expect(page.headers['X-Next-Page']).toBe('');
    expect(page.headers['X-Prev-Page']).toBe('2');
    expect(page.headers.Link).toBe(
      [
        `<${url('page=2&per_page=2')}>; rel="prev"`,
        `<${url('page=1&per_page=2')}>; rel="first"`,
        `<${url('page=3&per_page=2')}>; rel="last"`,
      ].join(', '),
    );
  });

  it('has no next page when the list ends exactly at the end of the page', () => {
    // Act
    const page = paginateArray({ page: 2, per_page: 2 }, link, [1, 2, 3, 4]);

    // Assess
    expect(page.items).toEqual([3, 4]);
    expect(page.headers['X-Next-Page']).toBe('');
    expect(page.headers['X-Total-Pages']).toBe('2');
  });

  it('reports one page (not zero) for an empty list', () => {
    // Act
    const page = paginateArray({ page: 1, per_page: 20 }, link, []);

    // Assess
    expect(page.items).toEqual([]);
    expect(page.headers).toEqual({
      'X-Per-Page': '20',
      'X-Page': '1',
      'X-Next-Page': '',
      'X-Prev-Page': '',
      'X-Total': '0',
      'X-Total-Pages': '1',
      Link: `<${url('page=1&per_page=20')}>; rel="first", <${url('page=1&per_page=20')}>; rel="last"`,
    });
  });

  it('returns no items past the end, still linking back and to the last page', () => {
    // Act
    const page = paginateArray({ page: 9, per_page: 2 }, link, all);

    // Assess
    expect(page.items).toEqual([]);
    expect(page.headers['X-Next-Page']).toBe('');
    expect(page.headers['X-Prev-Page']).toBe('8');
    expect(page.headers['X-Total-Pages']).toBe('3');
  });

  it('keeps the other query parameters, sorted by name, replaces page/per_page and drops cursor', () => {
    // Prepare
    const withQuery: PageLinkBase = {
      url: BASE,
      query: { username: 'alice', page: '7', per_page: '50', cursor: 'abc', 'scopes[]': ['api', 'sudo'], active: 'true' },
    };

    // Act
    const page = paginateArray({ page: 1, per_page: 2 }, withQuery, [1, 2, 3]);

    // Assess
    expect(page.headers.Link).toBe(
      [
        `<${url('active=true&page=2&per_page=2&scopes%5B%5D=api&scopes%5B%5D=sudo&username=alice')}>; rel="next"`,
        `<${url('active=true&page=1&per_page=2&scopes%5B%5D=api&scopes%5B%5D=sudo&username=alice')}>; rel="first"`,
        `<${url('active=true&page=2&per_page=2&scopes%5B%5D=api&scopes%5B%5D=sudo&username=alice')}>; rel="last"`,
      ].join(', '),
    );
  });

  it('encodes query values that need escaping', () => {
    // Prepare
    const withQuery: PageLinkBase = { url: BASE, query: { search: 'a b&c=d' } };

    // Act
    const page = paginateArray({ page: 1, per_page: 20 }, withQuery, [1]);

    // Assess
    expect(page.headers.Link).toContain(`<${url('page=1&per_page=20&search=a+b%26c%3Dd')}>; rel="first"`);
  });
});

describe('keyset cursors', () => {
  it('decodes what it encodes', () => {
    // Prepare
    const position = { PK: 'USER#2', SK: 'USER', GSI1PK: 'USERS', GSI1SK: '000000000002', n: 5 };

    // Act
    const cursor = encodeCursor(position);

    // Assess
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['not base64 json', '!!!'],
    ['valid base64 of plain text', Buffer.from('hello').toString('base64url')],
    ['a JSON array', Buffer.from('[1,2]').toString('base64url')],
    ['a JSON object with a nested object', Buffer.from('{"PK":{"S":"x"}}').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
  ])('rejects %s as `cursor is invalid`', (_name, cursor) => {
    // Act
    let thrown: unknown;
    try {
      decodeCursor(cursor);
    } catch (error) {
      thrown = error;
    }

    // Assess
    expect(thrown).toBeInstanceOf(ParamError);
    expect((thrown as ParamError).statusCode).toBe(400);
    expect((thrown as ParamError).body).toEqual({ error: 'cursor is invalid' });
  });
});

describe('paginate over a DynamoDB Query', () => {
  /** Five users in the GSI1 `USERS` collection, served three per Query page. */
  const userItems: Item[] = [1, 2, 3, 4, 5].map((id) => ({
    ...userKeys.user(id),
    ...userIndexKeys.userList(id),
    type: 'User',
    id,
  }));
  const position = (item: Item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK });
  const QUERY_PAGE = 3;
  const link: PageLinkBase = { url: BASE, query: { order_by: 'id' } };
  const source = { collection: userCollections.users(), ascending: true, select: (item: Item) => item.id as number };

  /** Internal: the Queries of the index (the users lists also read their journal of recent writes, a table Query). */
  const indexQueries = () => ddbMock.commandCalls(QueryCommand).filter((call) => call.args[0].input.IndexName !== undefined);
  /** Internal: the ExclusiveStartKey of every index Query sent, in order. */
  const startKeys = () => indexQueries().map((call) => (call.args[0].input).ExclusiveStartKey);

  beforeAll(() => {
    process.env.TABLE_NAME = 'pagination-test';
    resetConfig();
    setClients({
      db: DynamoDBDocumentClient.from(
        new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
      ),
    });
  });

  afterAll(() => {
    ddbMock.restore();
    delete process.env.TABLE_NAME;
    resetConfig();
  });

  beforeEach(() => {
    ddbMock.reset();
    // A Query that returns at most QUERY_PAGE items, after ExclusiveStartKey, as DynamoDB does at its 1 MB cap.
    ddbMock.on(QueryCommand).callsFake((input: QueryCommandInput) => {
      // The journal of recent writes (read-your-writes, `platform/dynamo/recent.ts`): nothing recent.
      if (input.IndexName === undefined) return { Items: [] };
      const after = input.ExclusiveStartKey;
      const start = after ? userItems.findIndex((item) => item.GSI1SK === after.GSI1SK) + 1 : 0;
      const items = userItems.slice(start, start + QUERY_PAGE);
      const more = start + QUERY_PAGE < userItems.length;
      return { Items: items, LastEvaluatedKey: more ? position(items[items.length - 1]) : undefined };
    });
  });

  it('queries the collection by its index and partition, in the requested order', async () => {
    // Act
    await paginate({ page: 1, per_page: 2 }, link, source);

    // Assess
    const input = indexQueries()[0].args[0].input;
    expect(input).toMatchObject({
      TableName: 'pagination-test',
      IndexName: 'GSI1',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'GSI1PK' },
      ExpressionAttributeValues: { ':pk': 'USERS' },
      ScanIndexForward: true,
    });
  });

  it('returns offset page 2 across two Query pages, with X-Total once the end was reached', async () => {
    // Act
    const page = await paginate({ page: 2, per_page: 2 }, link, source);

    // Assess
    expect(page.items).toEqual([3, 4]);
    expect(startKeys()).toEqual([undefined, position(userItems[2])]);
    expect(page.headers).toEqual({
      'X-Per-Page': '2',
      'X-Page': '2',
      'X-Next-Page': '3',
      'X-Prev-Page': '1',
      'X-Total': '5',
      'X-Total-Pages': '3',
      Link: [
        `<${url('order_by=id&page=1&per_page=2')}>; rel="prev"`,
        `<${url('order_by=id&page=3&per_page=2')}>; rel="next"`,
        `<${url('order_by=id&page=1&per_page=2')}>; rel="first"`,
        `<${url('order_by=id&page=3&per_page=2')}>; rel="last"`,
      ].join(', '),
    });
  });

  it('leaves out items the source filters out, from the page and from X-Total', async () => {
    // Prepare
    const oddOnly = { ...source, select: (item: Item) => ((item.id as number) % 2 === 1 ? (item.id as number) : undefined) };

    // Act
    const page = await paginate({ page: 1, per_page: 2 }, link, oddOnly);

    // Assess
    expect(page.items).toEqual([1, 3]);
    expect(page.headers['X-Total']).toBe('3');
    expect(page.headers['X-Next-Page']).toBe('2');
  });

  it('with a maintained total, stops one match past the page and takes X-Total from the source', async () => {
    // Prepare
    const withTotal = { ...source, total: async () => 42 };

    // Act
    const page = await paginate({ page: 1, per_page: 2 }, link, withTotal);

    // Assess
    expect(page.items).toEqual([1, 2]);
    expect(indexQueries()).toHaveLength(1);
    // The page and one item more: whether a next page exists.
    expect(indexQueries()[0].args[0].input.Limit).toBe(3);
    expect(page.headers['X-Total']).toBe('42');
    expect(page.headers['X-Total-Pages']).toBe('21');
    expect(page.headers['X-Next-Page']).toBe('2');
  });

  it('over merged collections, reads no further Query page than the page and its one extra item need', async () => {
    // Prepare: the page (2) and the item telling a next page exists fill the first Query page (3).
    const merged = { ...mergedCollections([userCollections.users()], { ascending: true, isSortKey: () => true, select: (item: Item) => item.id as number }), total: async () => 5 };

    // Act
    const page = await paginate({ page: 1, per_page: 2 }, link, merged);

    // Assess
    expect(page.items).toEqual([1, 2]);
    expect(page.headers['X-Next-Page']).toBe('2');
    expect(indexQueries()).toHaveLength(1);
  });

  it('without a maintained total, stops counting past LIST_COUNT_LIMIT and leaves X-Total and rel="last" out', async () => {
    // Act
    const page = await withListCountLimit(1, () => paginate({ page: 1, per_page: 2 }, link, source));

    // Assess: the first Query asks for the page and what is counted past it (then one more item).
    expect(page.items).toEqual([1, 2]);
    expect(indexQueries()[0].args[0].input.Limit).toBe(4);
    expect(indexQueries()).toHaveLength(2);
    expect(page.headers).toEqual({
      'X-Per-Page': '2',
      'X-Page': '1',
      'X-Next-Page': '2',
      'X-Prev-Page': '',
      Link: `<${url('order_by=id&page=2&per_page=2')}>; rel="next", <${url('order_by=id&page=1&per_page=2')}>; rel="first"`,
    });
  });

  it('in keyset mode links rel="next" with a cursor at the last returned item, and only that link', async () => {
    // Act
    const page = await paginate({ page: 1, per_page: 2, pagination: 'keyset' }, link, source);

    // Assess
    expect(page.items).toEqual([1, 2]);
    expect(Object.keys(page.headers).sort()).toEqual(['Link', 'X-Per-Page']);
    expect(page.headers['X-Per-Page']).toBe('2');
    const match = /^<([^>]+)>; rel="next"$/.exec(page.headers.Link);
    expect(match).not.toBeNull();
    const next = new URL(match![1]);
    expect(`${next.origin}${next.pathname}`).toBe(BASE);
    expect([...next.searchParams.keys()]).toEqual(['cursor', 'order_by', 'pagination', 'per_page']);
    expect(next.searchParams.get('pagination')).toBe('keyset');
    expect(next.searchParams.get('per_page')).toBe('2');
    expect(next.searchParams.get('order_by')).toBe('id');
    expect(decodeCursor(next.searchParams.get('cursor')!)).toEqual(position(userItems[1]));
  });

  it('in keyset mode starts the Query right after the cursor it handed out', async () => {
    // Prepare
    const first = await paginate({ page: 1, per_page: 2, pagination: 'keyset' }, link, source);
    const cursor = new URL(/^<([^>]+)>/.exec(first.headers.Link)![1]).searchParams.get('cursor')!;
    ddbMock.resetHistory();

    // Act
    const second = await paginate({ page: 1, per_page: 2, pagination: 'keyset', cursor }, link, source);

    // Assess
    expect(second.items).toEqual([3, 4]);
    expect(startKeys()[0]).toEqual(position(userItems[1]));
    expect(second.headers.Link).toMatch(/; rel="next"$/);
  });

  it('in keyset mode sends no Link on the last page', async () => {
    // Prepare
    const cursor = encodeCursor(position(userItems[2]));

    // Act
    const page = await paginate({ page: 1, per_page: 2, pagination: 'keyset', cursor }, link, source);

    // Assess
    expect(page.items).toEqual([4, 5]);
    expect(startKeys()).toEqual([position(userItems[2])]);
    expect(page.headers).toEqual({ 'X-Per-Page': '2' });
  });

  it('rejects a cursor from another collection without querying', async () => {
    // Prepare
    const cursor = encodeCursor({ PK: 'USER#1', SK: 'USER', GSI1PK: 'USER_EVENTS#1', GSI1SK: '000000000001' });

    // Act
    const result = paginate({ page: 1, per_page: 2, pagination: 'keyset', cursor }, link, source);

    // Assess
    await expect(result).rejects.toBeInstanceOf(ParamError);
    await expect(result).rejects.toMatchObject({ body: { error: 'cursor is invalid' } });
    expect(indexQueries()).toHaveLength(0);
  });

  it('rejects a garbage cursor without querying', async () => {
    // Act
    const result = paginate({ page: 1, per_page: 2, pagination: 'keyset', cursor: 'garbage!' }, link, source);

    // Assess
    await expect(result).rejects.toMatchObject({ statusCode: 400, body: { error: 'cursor is invalid' } });
    expect(indexQueries()).toHaveLength(0);
  });
});

describe('paginate over a mapped stream (entries naming items loaded a chunk at a time)', () => {
  const link: PageLinkBase = { url: BASE, query: {} };
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  /** Internal: the entries 1..count, in order, and the chunks `map` was given (a BatchGetItem each, in a list). */
  function numbered(count: number, keep: (n: number) => boolean = () => true, options: Parameters<typeof mappedStream>[2] = {}) {
    const chunks: number[][] = [];
    let read = 0;
    const entries: StreamSource<number> = {
      async *read() {
        for (let n = 1; n <= count; n++) {
          read = n;
          yield { value: n, cursor: () => String(n) };
        }
      },
    };
    const stream = mappedStream(entries, async (values: number[]) => {
      chunks.push(values);
      return values.map((n) => (keep(n) ? n : undefined));
    }, options);
    return { stream, chunkSizes: () => chunks.map((chunk) => chunk.length), entriesRead: () => read };
  }

  it('serves a small page of a long counted list from the first entries read: the page and the next match loaded, nothing more read', async () => {
    // Prepare: a maintained total; per_page 2.
    const { stream, chunkSizes, entriesRead } = numbered(500);

    // Act
    const page = await paginate({ page: 1, per_page: 2 }, link, { ...stream, total: async () => 500 });

    // Assess
    expect(page.items).toEqual([1, 2]);
    expect(chunkSizes()).toEqual([3]);
    expect(entriesRead()).toBeLessThanOrEqual(4);
    expect(page.headers['X-Total']).toBe('500');
    expect(page.headers['X-Next-Page']).toBe('2');
  });

  it('loads only the page and one more when the list is longer than counting may read, and leaves X-Total out', async () => {
    // Prepare: 500 entries, more than the page (20), the one after it and LIST_COUNT_LIMIT (100).
    const { stream, chunkSizes } = numbered(500);

    // Act
    const page = await paginate({ page: 1, per_page: 20 }, link, stream);

    // Assess
    expect(page.items).toEqual(upTo(20));
    expect(chunkSizes()).toEqual([21]);
    expect(page.headers['X-Next-Page']).toBe('2');
    expect(page.headers['X-Total']).toBeUndefined();
    expect(page.headers['X-Total-Pages']).toBeUndefined();
  });

  it('counts a list that ends within what counting may read, exactly, in the chunk that loads the page', async () => {
    // Prepare
    const { stream, chunkSizes } = numbered(90);

    // Act
    const page = await paginate({ page: 1, per_page: 20 }, link, stream);

    // Assess
    expect(page.items).toEqual(upTo(20));
    expect(chunkSizes()).toEqual([90]);
    expect(page.headers['X-Total']).toBe('90');
    expect(page.headers['X-Total-Pages']).toBe('5');
  });

  it('with countOnePageMore (a search), counts a list of at most twice what the page loads, and loads just the page of a longer one', async () => {
    // Prepare: page 1 of 20 loads 21 entries (the page and the one after); counting may load as many again.
    const within = numbered(42, () => true, { countWithin: countOnePageMore });
    const past = numbered(43, () => true, { countWithin: countOnePageMore });

    // Act
    const counted = await paginate({ page: 1, per_page: 20 }, link, within.stream);
    const uncounted = await paginate({ page: 1, per_page: 20 }, link, past.stream);

    // Assess: 42 entries are counted exactly in the page's own load; 43 (within LIST_COUNT_LIMIT,
    // which a list of plain entries would count) load only the page and the next, without X-Total.
    expect(counted.headers['X-Total']).toBe('42');
    expect(within.chunkSizes()).toEqual([42]);
    expect(uncounted.items).toEqual(upTo(20));
    expect(past.chunkSizes()).toEqual([21]);
    expect(uncounted.headers['X-Total']).toBeUndefined();
    expect(uncounted.headers['X-Next-Page']).toBe('2');
  });

  it('in a long list, reads on past left-out entries to the next match, so X-Next-Page stays exact', async () => {
    // Prepare: entries 21 to 60 are left out (another filter, or not visible); 61 matches.
    const { stream, chunkSizes } = numbered(500, (n) => n <= 20 || n > 60);

    // Act
    const page = await paginate({ page: 1, per_page: 20 }, link, stream);

    // Assess
    expect(page.items).toEqual(upTo(20));
    expect(chunkSizes()).toEqual([21, 21, 21]);
    expect(page.headers['X-Next-Page']).toBe('2');
    expect(page.headers['X-Total']).toBeUndefined();
  });

  it('on a last page of a long list that the filters leave empty past it, links no next page', async () => {
    // Prepare: only 1..20 match in 500 entries.
    const { stream } = numbered(500, (n) => n <= 20);

    // Act: counting may read past all of it.
    const page = await withListCountLimit(1000, () => paginate({ page: 1, per_page: 20 }, link, stream));

    // Assess: counting may read the whole list here, so it does, and the total is exact.
    expect(page.items).toEqual(upTo(20));
    expect(page.headers['X-Next-Page']).toBe('');
    expect(page.headers['X-Total']).toBe('20');
  });
});
