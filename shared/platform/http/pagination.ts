import * as z from 'zod';
import type { Collection } from '../dynamo/keys';
import { positionOf, queryCollection, type Item } from '../dynamo/query';
import type { JournalReads } from '../dynamo/recent';
import { ParamError } from './errors';
import { p } from './params';
import { config } from '../config';

/** GitLab's `use :pagination`: spread into a route's parameter schema. */
export const paginationParams = {
  page: p.int().transform((v) => Math.max(1, v ?? 1)),
  per_page: p.int().transform((v) => (v === undefined || v < 1 ? DEFAULT_PER_PAGE : Math.min(v, MAX_PER_PAGE))),
  pagination: p.oneOf(['offset', 'keyset']),
  cursor: p.string(),
  /**
   * Not GitLab's: how many items earlier than `(page - 1) * per_page` an offset page starts. Only
   * the `Link` of a page ended early to stay under the response budget carries it (see
   * {@link pageContinuation}); clamped to `[0, (page - 1) * per_page]`. Clients that follow
   * `X-Next-Page` instead get the shift folded into the page number ({@link PAGE_SHIFT_RADIX}).
   */
  page_shift: p.int(),
};

/**
 * A page number carries a shift when it is at least this: `page = shift * PAGE_SHIFT_RADIX +
 * number`. `X-Next-Page`/`X-Prev-Page` of a walk whose earlier page was ended early name such a
 * number, so a client that only copies `X-Next-Page` into `page` (go-gitlab) resumes exactly where
 * `Link` does, without a parameter it does not know. No list has 2^21 pages of items (a plain page
 * number that large would be past the end anyway), and the product stays a safe integer.
 */
export const PAGE_SHIFT_RADIX = 2 ** 21;
export const DEFAULT_PER_PAGE = 20;
const MAX_QUERY_PAGE = 1000;
/**
 * How many items past the requested page an offset list without a maintained total reads to
 * count the rest (GitLab likewise stops counting at 10,000). Bounded, so the cost of a page
 * never grows with the collection; past it `X-Total` is left out.
 */
const countLimit = () => config().listCountLimit;
export const MAX_PER_PAGE = 100;

export type PaginationParams = { page: number; per_page: number; pagination?: 'offset' | 'keyset'; cursor?: string; page_shift?: number };

/** Where the request came from, to build `Link` URLs (GitLab keeps every other query parameter). */
export interface PageLinkBase {
  url: string;
  query: Record<string, string | string[]>;
  /**
   * The `private_token` query parameter, kept apart from `query`: page links never carry it; a
   * redirect GitLab carries the whole query into (the latest release's permalink) adds it back.
   */
  privateToken?: string;
}

/** A list backed by one DynamoDB collection (a partition of the table or of an index). */
export interface CollectionSource<T> {
  collection: Collection;
  ascending: boolean;
  /** Maps an item to a list entry, or `undefined` to leave it out (a filter applied after the read). */
  select: (item: Item) => T | undefined;
  /** Exact size of the list when it is maintained elsewhere; `undefined`: not for this request (count instead). */
  total?: () => Promise<number | undefined>;
}

/** One entry of a stream: its value (`undefined` when filtered out) and its position as a cursor. */
export interface StreamEntry<T> {
  value: T | undefined;
  cursor: () => string;
  /**
   * Set by a source that knows the list goes on past the `hint` entries it was asked for (see
   * {@link mappedStream}): a reader counting to the end within `hint` cannot, and stops counting.
   */
  beyondHint?: true;
}

/**
 * Any ordered list that can resume after a position (e.g. several collections merged by id).
 * `read` yields entries after `after` (a cursor it produced earlier, already checked by the source);
 * `hint` says how many entries the reader may read (the page, and what it would count past it), so
 * a source can size its reads; `need`, how many it reads whatever the list holds (the page and one
 * more), so a source whose entries cost a read of their own can read no more when counting is
 * pointless.
 */
export interface StreamSource<T> {
  read(after: string | undefined, hint: number, need?: number): AsyncIterable<StreamEntry<T>>;
  /** As {@link CollectionSource.total}. */
  total?: () => Promise<number | undefined>;
}

export type ListSource<T> = CollectionSource<T> | StreamSource<T>;

export interface Page<T> {
  items: T[];
  /** GitLab's pagination headers, marked with the page's {@link PageContinuation}. */
  headers: Record<string, string>;
}

/**
 * How a page can be ended early: a page too large for the response budget is cut by the
 * platform after its first `kept` items (`shared/platform/http/response-size.ts`), and `after`
 * gives the pagination headers whose `rel="next"` resumes exactly at the first item left out.
 * `items` is how many items the page holds: a route whose body is not one entry per page item
 * cannot be cut.
 */
export interface PageContinuation {
  items: number;
  after(kept: number): Record<string, string>;
}

/**
 * The key under which page headers carry their {@link PageContinuation}: a symbol and not
 * enumerable, so it is never sent as a header nor seen by `toEqual`. A route passes the page's
 * headers on as they are (`ok(items, page.headers)`): headers built anew lose it, and such a page
 * is then only held to the ceiling (413 past it).
 */
export const pageContinuation: unique symbol = Symbol('pageContinuation');

/** The continuation a route's headers carry, if they are a page's. */
export function continuationOf(headers: Record<string, string> | undefined): PageContinuation | undefined {
  return (headers as { [pageContinuation]?: PageContinuation } | undefined)?.[pageContinuation];
}

/** Internal: headers marked with how to end their page early; values that are placeholders (`undefined`) make a page that cannot be cut. */
function markPage<T>(items: T[], headers: Record<string, string>, after: (kept: number) => Record<string, string>): Page<T> {
  // A plain loop: `every` would skip the holes of a sparse placeholder array.
  let placeholders = false;
  for (let i = 0; i < items.length; i++) placeholders ||= items[i] === undefined;
  if (!placeholders) {
    Object.defineProperty(headers, pageContinuation, { value: { items: items.length, after }, enumerable: false });
  }
  return { items, headers };
}

/** Adapts a collection to a stream: cursors are the items' key positions, checked on the way back in. */
export function collectionStream<T>(source: CollectionSource<T>): StreamSource<T> {
  return {
    total: source.total,
    async *read(after, hint) {
      const startAfter = after ? decodeCursor(after) : undefined;
      if (startAfter && !isPositionIn(startAfter, source.collection)) throw new ParamError('cursor is invalid');
      for await (const item of queryCollection(source.collection, { ascending: source.ascending, startAfter, pageSize: hint })) {
        yield { value: source.select(item), cursor: () => encodeCursor(positionOf(item, source.collection)) };
      }
    },
  };
}

/**
 * Several collections that share one sort-key format (e.g. a list's state partitions, or the
 * projects of a group), merged in sort-key order into one stream, each read a Query page at a
 * time as the consumer pulls. Cursors are the last entry's sort key; one that `isSortKey` rejects
 * is a 400 (`cursor is invalid`). No collection: an empty stream.
 */
export function mergedCollections<T>(
  colls: readonly Collection[],
  options: {
    ascending: boolean;
    isSortKey: (key: string) => boolean;
    select: (item: Item) => T | undefined;
    /** Journal readings already known (`quietJournals`): those journals are not read again. */
    journals?: JournalReads;
  },
): StreamSource<T> {
  const { ascending, isSortKey, select } = options;
  return {
    async *read(cursor, hint) {
      let after: string | undefined;
      if (cursor !== undefined) {
        try {
          after = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')).k;
        } catch {
          after = undefined;
        }
        if (typeof after !== 'string' || !isSortKey(after)) throw new ParamError('cursor is invalid');
      }
      if (colls.length === 0) return;
      const sortKeyOf = (item: Item) => item[colls[0].sortAttribute] as string;
      // Partitions sharing a journal (an issue list's states) read it once for this read.
      const journals: JournalReads = new Map(options.journals);
      const iterators = colls.map((c) =>
        queryCollection(after === undefined ? c : { ...c, ...(ascending ? { from: after } : { below: after }) }, { ascending, pageSize: hint, journals })[
          Symbol.asyncIterator
        ](),
      );
      const heads = await Promise.all(iterators.map((it) => it.next()));
      for (;;) {
        let best = -1;
        for (let i = 0; i < heads.length; i++) {
          if (heads[i].done) continue;
          const cmp = best < 0 ? 0 : sortKeyOf(heads[i].value).localeCompare(sortKeyOf(heads[best].value));
          if (best < 0 || (ascending ? cmp < 0 : cmp > 0)) best = i;
        }
        if (best < 0) return;
        const item = heads[best].value as Item;
        const sortKey = sortKeyOf(item);
        // `from` is inclusive; the item after the one yielded is read only when the consumer asks
        // for it (a page that ends at the last item of a Query page reads no further page).
        if (sortKey !== after) yield { value: select(item), cursor: () => Buffer.from(JSON.stringify({ k: sortKey })).toString('base64url') };
        heads[best] = await iterators[best].next();
      }
    },
  };
}

/**
 * A stream whose values are mapped a chunk at a time by an asynchronous function (e.g. list
 * entries to the items they name, one BatchGetItem per chunk; `undefined` leaves a value out),
 * keeping each entry's cursor. It looks one entry past the reader's `hint` first (in the same
 * Query page): when the list goes on past it, counting to its end is out of reach, so its entries
 * say so (`beyondHint`) and are mapped only as far as the reader needs; otherwise a chunk is what
 * the reader may read, so counting a short list rides in the page's own reads.
 *
 * `countWithin(need)` bounds that further: a list of more entries than it says is not counted
 * either (a search's entries each cost a load: {@link countOnePageMore}).
 */
export function mappedStream<A, B>(
  source: StreamSource<A>,
  map: (values: A[]) => Promise<Array<B | undefined>>,
  options: { countWithin?: (need: number) => number } = {},
): StreamSource<B> {
  const chunkOf = (n: number) => Math.min(Math.max(n, 20), 100);
  return {
    total: source.total,
    async *read(after, hint, need = hint) {
      const entries = source.read(after, hint + 1, need)[Symbol.asyncIterator]();
      const ahead: Array<StreamEntry<A>> = [];
      for (let next; ahead.length <= hint && !(next = await entries.next()).done; ) ahead.push(next.value);
      const beyondHint = ahead.length > Math.min(hint, options.countWithin?.(need) ?? hint);
      // Beyond the hint the first chunk is exactly what the reader needs (a small page loads
      // and reads no more), the next ones at least 20 (fewer, larger batches past left-out entries).
      let chunkSize = beyondHint ? need : chunkOf(hint);
      let chunk: Array<StreamEntry<A>> = [];
      const flush = async function* () {
        const present = chunk.filter((entry) => entry.value !== undefined);
        const mapped = await map(present.map((entry) => entry.value as A));
        const byEntry = new Map(present.map((entry, i) => [entry, mapped[i]]));
        for (const entry of chunk) yield { cursor: entry.cursor, value: byEntry.get(entry), ...(beyondHint ? { beyondHint: true as const } : {}) };
        chunk = [];
        chunkSize = chunkOf(chunkSize);
      };
      const all = async function* () {
        yield* ahead;
        for (let next; !(next = await entries.next()).done; ) yield next.value;
      };
      try {
        for await (const entry of all()) {
          chunk.push(entry);
          if (chunk.length >= chunkSize) yield* flush();
        }
        if (chunk.length > 0) yield* flush();
      } finally {
        // A reader that stops early ends the source's reading too.
        await entries.return?.();
      }
    },
  };
}

/**
 * For {@link mappedStream}'s `countWithin`: a list whose entries each cost a load (a search's
 * matches, read from its index and loaded to be checked) is counted only while that loads at most
 * as many entries again as the page itself (`need`: the entries up to the page's end, and one
 * more); a longer one leaves `X-Total` out, as the count of a list without a maintained total does
 * past `LIST_COUNT_LIMIT`, rather than load up to that many items for it.
 */
export const countOnePageMore = (need: number): number => 2 * need;

/**
 * A collection whose entries are also checked by an asynchronous filter, a chunk at a time
 * (e.g. "can the caller see this event's project?" — one batch read per chunk, not per entry).
 */
export function filteredCollection<T>(
  source: CollectionSource<T> & { keep: (values: T[]) => Promise<boolean[]> },
): StreamSource<T> {
  return mappedStream(collectionStream(source), async (values: T[]) => {
    const verdicts = await source.keep(values);
    return values.map((value, i) => (verdicts[i] ? value : undefined));
  });
}

/**
 * One page of a list, with GitLab's pagination headers.
 *
 * Offset mode (default) reads the list in order up to the end of the requested page, then
 * either one more match (when the source maintains its total) or at most a fixed number of items
 * to count the rest: its cost grows with the page number, never with the table. `X-Total`,
 * `X-Total-Pages` and `rel="last"` are sent when the total is known and left out otherwise, as
 * GitLab does for very large lists. Keyset mode (`pagination=keyset`) starts right after the
 * `cursor` position, so a deep page costs what the first does, and links only `rel="next"`.
 * A list already read whole (an array, e.g. sorted in memory) is paged by {@link paginateArray}.
 */
export async function paginate<T>(params: PaginationParams, link: PageLinkBase, list: ListSource<T> | T[]): Promise<Page<T>> {
  if (Array.isArray(list)) return paginateArray(params, link, list);
  const source = 'collection' in list ? collectionStream(list) : list;
  const perPage = params.per_page;
  if (params.pagination === 'keyset') {
    const items: T[] = [];
    const cursors: Array<() => string> = [];
    let hasMore = false;
    // One more than the page tells whether a next page exists.
    for await (const entry of source.read(params.cursor, perPage + 1)) {
      if (entry.value === undefined) continue;
      if (items.length === perPage) {
        hasMore = true;
        break;
      }
      items.push(entry.value);
      cursors.push(entry.cursor);
    }
    const keysetHeaders = (last: (() => string) | undefined) => {
      const headers: Record<string, string> = { 'X-Per-Page': String(perPage) };
      if (last) headers.Link = `<${pageUrl(link, { cursor: last(), pagination: 'keyset', per_page: String(perPage) }, ['page', 'page_shift'])}>; rel="next"`;
      return headers;
    };
    return markPage(items, keysetHeaders(hasMore ? cursors.at(-1) : undefined), (kept) => keysetHeaders(cursors[kept - 1]));
  }

  const grid = pageGrid(params);
  const skip = grid.start;
  const items: T[] = [];
  let matched = 0;
  let readPastPage = 0;
  let reachedEnd = true;
  // The source says the list goes on past what counting may read: count nothing past the page.
  let uncountable = false;
  // Asked for once the page is full: a maintained total ends the reading at one more match.
  let total: Promise<number | undefined> | undefined;
  let maintained: number | undefined;
  // Ask for what the page needs in one round trip (more follow only when filters drop items); a
  // source without a maintained total asks for what it counts past the page too, so counting
  // rides in the page's own reads (a Query returns up to 1 MB), not one more Query per page counted.
  const wanted = skip + perPage + 1 + (source.total ? 0 : countLimit());
  for await (const entry of source.read(undefined, Math.min(wanted, MAX_QUERY_PAGE), skip + perPage + 1)) {
    uncountable ||= entry.beyondHint === true;
    if (matched >= skip + perPage) {
      if (!total && source.total) maintained = await (total = source.total());
      // Past the page: with a maintained total, or a list the source knows is longer than
      // counting may read, the next match is all we need to know there is a next page; otherwise
      // keep counting, but only up to a fixed bound.
      const pastBound = ++readPastPage > countLimit();
      const nextMatchDecides = maintained !== undefined || (uncountable && !pastBound);
      if (nextMatchDecides && entry.value === undefined) continue;
      if (nextMatchDecides || pastBound) {
        reachedEnd = false;
        break;
      }
    }
    if (entry.value === undefined) continue;
    if (matched >= skip && matched < skip + perPage) items.push(entry.value);
    matched++;
  }
  const hasNext = matched > skip + perPage || !reachedEnd;
  const known = reachedEnd ? matched : maintained;
  return markPage(items, offsetHeaders(grid, link, { hasNext, total: known }), (kept) => offsetHeaders(grid, link, { hasNext: true, total: known, kept }));
}

/** Pages an in-memory list whose size is known (e.g. the result of a unique lookup). */
export function paginateArray<T>(params: PaginationParams, link: PageLinkBase, all: T[]): Page<T> {
  const grid = pageGrid(params);
  const items = all.slice(grid.start, grid.start + grid.perPage);
  return markPage(
    items,
    offsetHeaders(grid, link, { hasNext: grid.start + grid.perPage < all.length, total: all.length }),
    (kept) => offsetHeaders(grid, link, { hasNext: true, total: all.length, kept }),
  );
}

/** Where an offset page starts in its list (a `page_shift` folded into `page` counted): what a route that reads its own page skips. */
export function pageStart(params: PaginationParams): number {
  return pageGrid(params).start;
}

/**
 * The headers of an offset page of a list the route reads itself (GitLab's commits list, which it
 * cannot count): whether a next page is linked, and the total the links are computed from, if any.
 * No array of the list's size is made, whatever `page` asks for.
 */
export function offsetPageHeaders(params: PaginationParams, link: PageLinkBase, page: { hasNext: boolean; total?: number }): Record<string, string> {
  return offsetHeaders(pageGrid(params), link, { hasNext: page.hasNext, total: page.total });
}

/**
 * Where an offset page lies: page `page` of `per_page` items starts at `(page - 1) * per_page`,
 * less `page_shift` items when an earlier page of the walk was ended early. The shift is clamped
 * so that a page always starts at an item (page 1 at the first).
 */
interface PageGrid {
  page: number;
  perPage: number;
  shift: number;
  start: number;
}

function pageGrid(params: PaginationParams): PageGrid {
  const perPage = params.per_page;
  const page = params.page % PAGE_SHIFT_RADIX || 1;
  const folded = Math.floor(params.page / PAGE_SHIFT_RADIX);
  const shift = Math.min(Math.max(0, params.page_shift ?? folded), (page - 1) * perPage);
  return { page, perPage, shift, start: (page - 1) * perPage - shift };
}

/** The page number `X-Next-Page`/`X-Prev-Page` name: `page`, with `shift` folded in when there is one. */
const headerPage = (page: number, shift: number) => (shift > 0 ? shift * PAGE_SHIFT_RADIX + page : page);

/**
 * GitLab's offset headers. A page ended early after `kept` items links its next page (the next
 * page number, as usual) with the shift that makes it start exactly at the first item left out;
 * its `rel="last"` and `X-Total-Pages` then count pages in that shifted grid: the last page
 * number a client following `rel="next"` reaches if no later page is ended early too.
 */
function offsetHeaders(
  grid: PageGrid,
  link: PageLinkBase,
  { hasNext, total, kept }: { hasNext: boolean; total: number | undefined; kept?: number },
): Record<string, string> {
  const { page, perPage, shift } = grid;
  // The shift of the pages after this one: this page's, or the one that resumes after `kept` items.
  const nextShift = kept === undefined ? shift : page * perPage - (grid.start + kept);
  const next = hasNext ? page + 1 : undefined;
  const prev = page > 1 ? page - 1 : undefined;
  const href = (target: number, targetShift: number) =>
    pageUrl(link, { page: String(target), per_page: String(perPage), ...(targetShift > 0 ? { page_shift: String(targetShift) } : {}) }, ['cursor', ...(targetShift > 0 ? [] : ['page_shift'])]);
  const links: string[] = [];
  if (prev) links.push(`<${href(prev, shift)}>; rel="prev"`);
  if (next) links.push(`<${href(next, nextShift)}>; rel="next"`);
  links.push(`<${href(1, 0)}>; rel="first"`);
  const headers: Record<string, string> = {
    'X-Per-Page': String(perPage),
    'X-Page': String(page),
    'X-Next-Page': next ? String(headerPage(next, nextShift)) : '',
    'X-Prev-Page': prev ? String(headerPage(prev, Math.min(shift, (prev - 1) * perPage))) : '',
  };
  if (total !== undefined) {
    const totalPages = Math.max(1, Math.ceil((total + nextShift) / perPage));
    links.push(`<${href(totalPages, totalPages > 1 ? nextShift : 0)}>; rel="last"`);
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(totalPages);
  }
  headers.Link = links.join(', ');
  return headers;
}

/** The request URL with some query parameters replaced or removed, keys sorted like Rails' `to_query`. */
function pageUrl(link: PageLinkBase, set: Record<string, string>, remove: string[]): string {
  const query: Record<string, string | string[]> = { ...link.query, ...set };
  for (const name of remove) delete query[name];
  const search = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  return `${link.url}?${search.toString()}`;
}

/** A cursor must name exactly a position of this collection (same partition, all key attributes). */
function isPositionIn(position: Item, collection: Collection): boolean {
  const expected = new Set(['PK', 'SK', collection.partitionAttribute, collection.sortAttribute]);
  const names = Object.keys(position);
  return (
    names.length === expected.size &&
    names.every((name) => expected.has(name) && typeof position[name] === 'string') &&
    position[collection.partitionAttribute] === collection.partitionValue
  );
}

const cursorSchema = z.record(z.string(), z.union([z.string(), z.number()]));

export function encodeCursor(position: Item): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor(cursor: string): Item {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new ParamError('cursor is invalid');
  }
}
