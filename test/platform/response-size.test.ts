/**
 * The response size guard (shared/platform/http/response-size.ts): a page too large for the
 * function's response is ended early, with links that resume exactly at the first item left out,
 * in offset and keyset mode; a body that cannot be sent at all is a 413, never a failed invocation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { resetConfig } from '../../shared/platform/config';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { continuationOf, PAGE_SHIFT_RADIX, paginate, paginateArray, paginationParams, type PageLinkBase, type PaginationParams, type StreamSource } from '../../shared/platform/http/pagination';
import { parseParams } from '../../shared/platform/http/params';
import { created, ok, withSerializedBody } from '../../shared/platform/http/response';
import { toProxyResult } from '../../shared/platform/http/serialize';
import { route } from '../../shared/platform/http/route';
import { boundedJson, LAMBDA_PAYLOAD_BYTES, responseLimits, STREAMED_CEILING_BYTES, type ResponseLimits } from '../../shared/platform/http/response-size';

const BASE = 'http://localhost:3000/api/v4/things';
const link: PageLinkBase = { url: BASE, query: {} };

/** Internal: limits for a test, counted raw unless said otherwise. */
const limits = (budget: number, ceiling = 1_000_000, escaped = false): ResponseLimits => ({ budget, ceiling, escaped });

/** Internal: `count` items whose JSON takes about `size` bytes each (sizes may vary by item). */
const items = (count: number, size: (i: number) => number = () => 100) =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, text: 'x'.repeat(Math.max(0, size(i) - 25)) }));

/** Internal: the URL of `rel` in a Link header. */
function linkOf(headers: Record<string, string>, rel: string): string | undefined {
  return headers.Link?.split(', ').find((part) => part.endsWith(`rel="${rel}"`))?.match(/^<([^>]+)>/)?.[1];
}

/** Internal: pagination parameters as a route would read them from a URL's query. */
const paramsOf = (url: string): PaginationParams =>
  parseParams(z.object(paginationParams), Object.fromEntries(new URL(url).searchParams));

/** Internal: an in-memory list as a stream whose cursors are positions. */
function streamOf<T>(all: T[]): StreamSource<T> {
  return {
    total: async () => all.length,
    async *read(after) {
      for (let i = after === undefined ? 0 : Number(after) + 1; i < all.length; i++) yield { value: all[i], cursor: () => String(i) };
    },
  };
}

/**
 * Internal: a client walking from `first`: following `rel="next"` as python-gitlab and gitbeaker
 * do, or copying `X-Next-Page` into `page` as go-gitlab does; every page is read by `read` and sent
 * through the guard. Returns the ids it saw and the pages' sizes.
 */
async function walk(
  first: string,
  read: (params: PaginationParams) => Promise<{ items: unknown[]; headers: Record<string, string> }>,
  guard: ResponseLimits,
  follows: 'link' | 'x-next-page' = 'link',
) {
  const seen: number[] = [];
  const sizes: number[] = [];
  let url: string | undefined = first;
  for (let guardRail = 0; url && guardRail < 100; guardRail++) {
    const page = await read(paramsOf(url));
    const answer = boundedJson(200, page.items, page.headers, guard);
    expect(answer.statusCode).toBe(200);
    seen.push(...(JSON.parse(answer.text) as Array<{ id: number }>).map((item) => item.id));
    sizes.push(Buffer.byteLength(answer.text));
    if (follows === 'link') url = linkOf(answer.headers, 'next');
    else {
      const next = new URL(first);
      next.searchParams.set('page', answer.headers['X-Next-Page']);
      url = answer.headers['X-Next-Page'] ? next.toString() : undefined;
    }
  }
  return { seen, sizes };
}

describe('page_shift', () => {
  it('is read as an integer beside page and per_page', () => {
    // Act
    const params = parseParams(z.object(paginationParams), { page: '2', per_page: '5', page_shift: '3' });

    // Assess
    expect(params).toEqual({ page: 2, per_page: 5, page_shift: 3 });
  });

  it('starts an offset page that many items earlier, and every link but first carries it', () => {
    // Act: page 2 of 2, shifted by one: items 2 and 3.
    const page = paginateArray({ page: 2, per_page: 2, page_shift: 1 }, link, [1, 2, 3, 4, 5]);

    // Assess
    expect(page.items).toEqual([2, 3]);
    expect(page.headers).toEqual({
      'X-Per-Page': '2',
      'X-Page': '2',
      'X-Next-Page': String(PAGE_SHIFT_RADIX + 3),
      'X-Prev-Page': '1',
      'X-Total': '5',
      'X-Total-Pages': '3',
      Link: [
        `<${BASE}?page=1&page_shift=1&per_page=2>; rel="prev"`,
        `<${BASE}?page=3&page_shift=1&per_page=2>; rel="next"`,
        `<${BASE}?page=1&per_page=2>; rel="first"`,
        `<${BASE}?page=3&page_shift=1&per_page=2>; rel="last"`,
      ].join(', '),
    });
  });

  it.each([
    [{ page: 1, per_page: 2, page_shift: 5 }, [1, 2]],
    [{ page: 2, per_page: 2, page_shift: 9 }, [1, 2]],
    [{ page: 2, per_page: 2, page_shift: -4 }, [3, 4]],
  ])('is clamped so that a page starts at an item: %j → %j', (params, expected) => {
    // Act
    const page = paginateArray(params, link, [1, 2, 3, 4, 5]);

    // Assess
    expect(page.items).toEqual(expected);
  });
});

describe('boundedJson', () => {
  it('sends a body within the budget as is, without the page mark', () => {
    // Prepare
    const page = paginateArray({ page: 1, per_page: 20 }, link, items(3));

    // Act
    const answer = boundedJson(200, page.items, page.headers, limits(10_000));

    // Assess
    expect(answer).toEqual({ statusCode: 200, text: JSON.stringify(page.items), headers: page.headers });
    expect(Object.getOwnPropertySymbols(answer.headers)).toEqual([]);
  });

  it('ends an offset page too large after the items that fit, and links the next page at the first item left out', () => {
    // Prepare: 10 items of 100 bytes, a budget of 350 bytes.
    const all = items(10);
    const page = paginateArray({ page: 1, per_page: 10 }, link, all);

    // Act
    const answer = boundedJson(200, page.items, page.headers, limits(350));

    // Assess: three items (2 + 3 × 100 + 2 bytes), page 2 starts at the fourth.
    expect(JSON.parse(answer.text)).toEqual(all.slice(0, 3));
    expect(answer.headers).toMatchObject({ 'X-Page': '1', 'X-Total': '10', 'X-Total-Pages': '2' });
    expect(linkOf(answer.headers, 'next')).toBe(`${BASE}?page=2&page_shift=7&per_page=10`);
    expect(paginateArray(paramsOf(linkOf(answer.headers, 'next')!), link, all).items[0]).toEqual(all[3]);
    // X-Next-Page folds the shift into the page number: the same page without page_shift.
    expect(answer.headers['X-Next-Page']).toBe(String(7 * PAGE_SHIFT_RADIX + 2));
    const byNumber = paginateArray({ page: Number(answer.headers['X-Next-Page']), per_page: 10 }, link, all);
    expect(byNumber.items[0]).toEqual(all[3]);
    expect(byNumber.headers).toMatchObject({ 'X-Page': '2', 'X-Prev-Page': '1' });
  });

  it.each<[string, string, 'link' | 'x-next-page']>([
    ['offset over an array', 'offset', 'link'],
    ['offset over a stream', 'stream', 'link'],
    ['keyset over a stream', 'keyset', 'link'],
    ['offset over an array, following X-Next-Page', 'offset', 'x-next-page'],
    ['offset over a stream, following X-Next-Page', 'stream', 'x-next-page'],
  ])('%s: a client sees every item once, in order, each page within the budget', async (_name, mode, follows) => {
    // Prepare: 23 items of 40 to 400 bytes.
    const all = items(23, (i) => 40 + ((i * 97) % 360));
    const budget = 900;
    const read = (params: PaginationParams) =>
      mode === 'offset' ? Promise.resolve(paginateArray(params, link, all)) : paginate(params, link, streamOf(all));
    const first = `${BASE}?per_page=7${mode === 'keyset' ? '&pagination=keyset' : ''}`;

    // Act
    const { seen, sizes } = await walk(first, read, limits(budget), follows);

    // Assess
    expect(seen).toEqual(all.map((item) => item.id));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    expect(sizes.length).toBeGreaterThan(Math.ceil(23 / 7));
  });

  it('serves an item larger than the budget alone (a page of one), and resumes after it', () => {
    // Prepare
    const all = items(3, (i) => (i === 0 ? 5_000 : 100));
    const page = paginateArray({ page: 1, per_page: 3 }, link, all);

    // Act
    const answer = boundedJson(200, page.items, page.headers, limits(1_000));

    // Assess
    expect(JSON.parse(answer.text)).toEqual([all[0]]);
    expect(linkOf(answer.headers, 'next')).toBe(`${BASE}?page=2&page_shift=2&per_page=3`);
  });

  it('answers 413 for a page whose first item alone is past the ceiling', () => {
    // Prepare
    const page = paginateArray({ page: 1, per_page: 3 }, link, items(3, () => 5_000));

    // Act
    const answer = boundedJson(200, page.items, page.headers, limits(1_000, 2_000));

    // Assess
    expect(answer).toEqual({ statusCode: 413, text: '{"message":"413 Response Too Large"}', headers: {} });
  });

  it('sends a body that is not a page as is past the budget, and answers 413 past the ceiling', () => {
    // Prepare
    const body = { description: 'x'.repeat(3_000) };

    // Act
    const within = boundedJson(200, body, {}, limits(1_000, 5_000));
    const over = boundedJson(200, body, {}, limits(1_000, 2_000));

    // Assess
    expect(within).toEqual({ statusCode: 200, text: JSON.stringify(body), headers: {} });
    expect(over.statusCode).toBe(413);
  });

  it('does not cut a body that is not one entry per page item (the route presented something else)', () => {
    // Prepare: the route answers twice as many entries as the page holds.
    const page = paginateArray({ page: 1, per_page: 5 }, link, items(5));
    const body = [...page.items, ...page.items];

    // Act
    const within = boundedJson(200, body, page.headers, limits(300, 5_000));
    const over = boundedJson(200, body, page.headers, limits(300, 600));

    // Assess
    expect(JSON.parse(within.text)).toHaveLength(10);
    expect(within.headers['X-Next-Page']).toBe('');
    expect(over.statusCode).toBe(413);
  });

  it('does not cut a page of placeholders (headers computed for a list the route reads itself)', () => {
    // Prepare: the repository's uncounted lists page an array of holes for their headers.
    const page = paginateArray({ page: 1, per_page: 5 }, link, new Array<undefined>(6));

    // Assess
    expect(continuationOf(page.headers)).toBeUndefined();
  });

  it('counts bytes escaped for a buffered response and raw for a streamed one', () => {
    // Prepare: quotes take two bytes in the body and four once escaped in the proxy result.
    const all = Array.from({ length: 4 }, (_, i) => ({ id: i + 1, text: '"'.repeat(100) }));
    const page = paginateArray({ page: 1, per_page: 4 }, link, all);

    // Act
    const buffered = boundedJson(200, page.items, page.headers, limits(1_000, 10_000, true));
    const streamed = boundedJson(200, page.items, page.headers, limits(1_000, 10_000, false));

    // Assess
    expect(JSON.parse(buffered.text)).toHaveLength(2);
    expect(JSON.parse(streamed.text)).toHaveLength(4);
  });
});

describe('a body serialised by its route (the runner payload, measured before it is sent)', () => {
  it('is sent as that text, never serialised again, through the size guard or without it', () => {
    // Prepare: a body that counts its serialisations.
    let serialisations = 0;
    const payload = { toJSON: () => (serialisations++, { id: 7, token: 'x' }) };

    // Act
    const { result, text } = withSerializedBody(created(payload));
    const guarded = toProxyResult(result, { limits: responseLimits(false) });
    const plain = toProxyResult(result);

    // Assess
    expect({ text, guarded: [guarded.statusCode, guarded.body], plain: plain.body, serialisations }).toEqual({
      text: '{"id":7,"token":"x"}',
      guarded: [201, '{"id":7,"token":"x"}'],
      plain: '{"id":7,"token":"x"}',
      serialisations: 1,
    });
  });
});

describe('responseLimits', () => {
  afterEach(() => {
    delete process.env.RESPONSE_BUDGET_BYTES;
    delete process.env.STREAMED_RESPONSE_BUDGET_BYTES;
    resetConfig();
  });

  it('defaults to 5 MB under Lambda\'s 6 MB, and 16 MB under a 20 MB ceiling when streamed', () => {
    // Act
    resetConfig();

    // Assess
    expect(responseLimits(false)).toEqual({ budget: 5_000_000, ceiling: LAMBDA_PAYLOAD_BYTES - 64 * 1024, escaped: true });
    expect(responseLimits(true)).toEqual({ budget: 16_000_000, ceiling: STREAMED_CEILING_BYTES, escaped: false });
  });

  it('reads the budgets from the environment, never above the ceiling', () => {
    // Prepare
    process.env.RESPONSE_BUDGET_BYTES = '99999999';
    process.env.STREAMED_RESPONSE_BUDGET_BYTES = '4096';
    resetConfig();

    // Assess
    expect(responseLimits(false).budget).toBe(LAMBDA_PAYLOAD_BYTES - 64 * 1024);
    expect(responseLimits(true).budget).toBe(4096);
  });
});

describe('createGroupHandler and the response size guard', () => {
  afterEach(() => {
    delete process.env.RESPONSE_BUDGET_BYTES;
    resetConfig();
  });

  const all = items(10, () => 1_000);
  const things = createGroupHandler(
    { group: 'things', prefix: '/api/v4', keys: ['GET /things'] as const },
    {
      'GET /things': route({
        params: z.object(paginationParams),
        anonymous: true,
        handler: async ({ params, link: base }) => {
          const page = paginateArray(params, base, all);
          return ok(page.items, page.headers);
        },
      }),
    },
    [],
  );
  const event = (query: Record<string, string>): APIGatewayProxyEvent => ({
    resource: '/api/v4/things',
    path: '/api/v4/things',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: query,
    multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])),
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'req-size' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  });
  const context = () => ({ awsRequestId: 'lambda-size', functionName: 'things' }) as Parameters<typeof things>[1];

  it('ends every paged route\'s page at the budget', async () => {
    // Prepare
    process.env.RESPONSE_BUDGET_BYTES = '4500';
    resetConfig();

    // Act
    const result = await things(event({ per_page: '10' }), context());

    // Assess: four items of 1,000 bytes fit 4,500 bytes.
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toHaveLength(4);
    expect(result.headers).toMatchObject({ 'X-Next-Page': String(6 * PAGE_SHIFT_RADIX + 2), 'X-Total-Pages': '2' });
    expect(String(result.headers?.Link)).toContain('page=2&page_shift=6&per_page=10');
  });

  it('allows the streamed budget to a function answered through response streaming', async () => {
    // Prepare
    process.env.RESPONSE_BUDGET_BYTES = '4500';
    resetConfig();

    // Act: streamingHandler marks the context.
    const result = await things(event({ per_page: '10' }), { ...context(), responseStreamed: true });

    // Assess
    expect(JSON.parse(result.body)).toHaveLength(10);
  });
});
