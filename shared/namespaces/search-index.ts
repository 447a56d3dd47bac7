/**
 * Search entries as the features store them ({@link ../platform/search.ts} gives the terms and
 * GitLab's rule): one item per term and searchable item, `PK` the feature's `SEARCH_<KIND>#<term>`
 * (built in its `store/keys.ts`), `SK` the item's zero-padded id, so a term's entries list the
 * items in id order, the default order of the users, projects and groups lists.
 *
 * - Writes: {@link putSearchEntries} before the item's write (every entry carries the item version
 *   it was written for), {@link removeSearchEntries} after it: entries are a superset of the truth.
 *   An edit removes the terms it dropped only where no later edit wrote them again (a conditional
 *   delete on the entry's version), so two edits racing back and forth never lose an entry; a
 *   deletion removes them all (no later writer exists for an id).
 * - Reads: {@link searchStream} merges the id streams of one or more terms (a Query each, `Limit`
 *   the page plus one, resumed after the cursor's id), loads the named items a chunk at a time
 *   (the feature's BatchGetItem) and keeps only those the feature's `load` returns (live, really
 *   matching, visible). A page costs what the term matches, never the whole list.
 *
 * Kept in the namespaces feature because users, projects and groups all build on it; it knows no
 * feature (a candidate for `shared/platform`).
 */
import { deleteMany, putMany } from '../platform/dynamo/batch';
import { removeEntriesUpTo } from '../platform/dynamo/entries';
import { pad, type Collection, type Key } from '../platform/dynamo/keys';
import { queryCollection } from '../platform/dynamo/query';
import { ParamError } from '../platform/http/errors';
import { countOnePageMore, mappedStream, type StreamSource } from '../platform/http/pagination';

/** Where an id stream starts and how much the page wants. */
export interface IdRange {
  ascending: boolean;
  /** Only ids after this one (in the stream's direction). */
  after?: number;
  /** How many entries the page wants (the Query `Limit`). */
  hint: number;
}

/** An ordered stream of item ids. */
export type IdStream = AsyncIterable<number>;

/** Most items loaded per batch read. */
const CHUNK = 100;

/** The entry items for `keys`, naming the item (`attributes`, e.g. `{ userId }`) and the version written. */
export async function putSearchEntries(keys: Key[], attributes: Record<string, unknown>, version: number): Promise<void> {
  await putMany(keys.map((key) => ({ ...key, type: 'SearchEntry', ...attributes, version })));
}

/**
 * Removes entries. With `version` (an edit that dropped these terms), each only when no later
 * edit wrote it again (`version` on the entry not above it); without (the item is deleted), all.
 */
export async function removeSearchEntries(keys: Key[], version?: number): Promise<void> {
  if (keys.length === 0) return;
  if (version === undefined) return deleteMany(keys);
  await removeEntriesUpTo(keys, version);
}

/** The ids a term's entries name (their `SK`), in id order after `range.after`, a Query page at a time. */
export async function* entryIds(collection: Collection, range: IdRange): IdStream {
  const { ascending, after } = range;
  const bounded = after === undefined ? collection : { ...collection, ...(ascending ? { from: pad(after + 1) } : { below: pad(after) }) };
  for await (const item of queryCollection(bounded, { ascending, pageSize: range.hint })) yield Number(item.SK);
}

/** Merges id streams that are each in order into one ordered stream without duplicates. */
export async function* mergeIdStreams(streams: IdStream[], ascending: boolean): IdStream {
  const iterators = streams.map((s) => s[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((it) => it.next()));
  let last: number | undefined;
  for (;;) {
    let best = -1;
    heads.forEach((head, i) => {
      if (head.done) return;
      const value = head.value;
      const current = best < 0 ? undefined : (heads[best].value as number);
      if (current === undefined || (ascending ? value < current : value > current)) best = i;
    });
    if (best < 0) return;
    const value = heads[best].value as number;
    heads[best] = await iterators[best].next();
    if (value !== last) yield value;
    last = value;
  }
}

/** An id cursor (`String(id)`), or a 400 when it is not one. */
export function idCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^\d{1,15}$/.test(cursor)) throw new ParamError('cursor is invalid');
  return Number(cursor);
}

/**
 * A list read from search entries, for `paginate`: the ids of `sources` (each in id order, merged),
 * loaded `hint`-sized chunks at a time by `load`, which returns the items to keep (live, matching
 * the search and the list's other filters, visible to the caller) by id. Cursors are ids.
 */
export function searchStream<T>(options: {
  ascending: boolean;
  sources: (range: IdRange) => IdStream[];
  load: (ids: number[]) => Promise<Map<number, T>>;
}): StreamSource<T> {
  const { ascending, sources, load } = options;
  const ids: StreamSource<number> = {
    async *read(cursor, hint) {
      for await (const id of mergeIdStreams(sources({ ascending, after: idCursor(cursor), hint }), ascending)) yield { value: id, cursor: () => String(id) };
    },
  };
  return mappedStream(
    ids,
    async (chunk) => {
      const kept = await load(chunk);
      return chunk.map((id) => kept.get(id));
    },
    { countWithin: countOnePageMore },
  );
}

/** Reads a whole (bounded) stream into memory: at most `limit` kept items, `undefined` beyond. */
export async function readAll<T>(stream: StreamSource<T>, limit: number): Promise<T[] | undefined> {
  const all: T[] = [];
  for await (const entry of stream.read(undefined, CHUNK)) {
    if (entry.value === undefined) continue;
    all.push(entry.value);
    if (all.length > limit) return undefined;
  }
  return all;
}
