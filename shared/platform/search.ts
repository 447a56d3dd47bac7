/**
 * Text search by index: GitLab's `search=` semantics (its `fuzzy_search`: case-insensitive
 * substrings, every word of at least three characters; a shorter query matches a whole value)
 * served from word-prefix terms written with the item, so a search reads what matches, not the
 * whole list (GitLab's trigram indexes play this part for its `ILIKE`).
 *
 * How a feature uses it:
 * - on every write of a searchable item, it writes one entry per term of the item's texts
 *   ({@link searchTerms}; {@link termChanges} gives what to add and remove) under keys it builds
 *   in its `store/keys.ts`. Entries are added before the item's write and removed after it, so
 *   the entries are always a superset of the truth: a failed or interrupted write leaves at most
 *   an entry that matches nothing;
 * - a search reads the entries of one term ({@link parseSearch}'s `term`, the longest word's
 *   prefix), loads the items they name and keeps those that really match ({@link matchesSearch},
 *   GitLab's exact rule), so a stale entry is never shown.
 *
 * Where it differs from GitLab's `ILIKE '%word%'`: a word matches where it starts a word of the
 * text (words are runs of letters and digits): `auth` finds "OAuth2 authentication" by its second
 * word, not by "OAuth2"'s middle. A query with no run of three letters or digits in its words
 * (e.g. `a.b`) has no term: {@link parseSearch} says so and the feature reads its list instead.
 */

/** GitLab's `MIN_CHARS_FOR_PARTIAL_MATCHING`: shorter words are left out of a search. */
export const MIN_SEARCH_WORD = 3;
/**
 * The prefix lengths indexed of each word: a query word is read by its longest indexed prefix
 * (which every word it starts has too) and checked after, so at most three entries per word serve
 * every query word of three characters or more.
 */
const PREFIX_LENGTHS = [3, 5, 8] as const;
/** Longest indexed prefix of a word. */
export const MAX_SEARCH_PREFIX = PREFIX_LENGTHS[PREFIX_LENGTHS.length - 1];

/** The indexed prefixes of a lower-cased word of three characters or more. */
const prefixesOf = (word: string): string[] => PREFIX_LENGTHS.filter((n) => n <= word.length).map((n) => word.slice(0, n));

/** The term a query word is read by: its longest indexed prefix. */
const termOf = (word: string): string => prefixesOf(word).at(-1)!;
/** A value this short or shorter, made only of short words, is indexed whole for exact matches. */
const MAX_EXACT_VALUE = 100;

const WORD = /[\p{L}\p{N}]+/gu;
const QUOTED = /"[^"]+"/g;

const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];
const squish = (text: string): string => text.trim().replace(/\s+/g, ' ');

/**
 * The terms an item is found by, from its searchable texts: the indexed prefixes of every word
 * (3, 5 and 8 characters), lower-cased, and
 * `=<value>` for a short value with no word of three characters (found only by a query equal to
 * it). Sorted, distinct.
 * @example searchTerms('Fix login') // ['fix', 'log', 'login']
 */
export function searchTerms(...texts: Array<string | null | undefined>): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    let long = false;
    for (const word of words(text)) {
      if (word.length < MIN_SEARCH_WORD) continue;
      long = true;
      for (const prefix of prefixesOf(word)) terms.add(prefix);
    }
    const value = squish(text).toLowerCase();
    if (!long && value.length > 0 && value.length <= MAX_EXACT_VALUE) terms.add(`=${value}`);
  }
  return [...terms].sort();
}

/**
 * Whether `term` is one of the terms of these texts (`searchTerms(...texts).includes(term)`),
 * without building them all: a reader checking that an entry it found still stands for its item
 * asks this of every item it loads.
 */
export function hasSearchTerm(term: string, ...texts: Array<string | null | undefined>): boolean {
  if (term.startsWith('=')) return searchTerms(...texts).includes(term);
  if (!(PREFIX_LENGTHS as readonly number[]).includes(term.length)) return false;
  return texts.some((text) => !!text && words(text).some((word) => word.startsWith(term)));
}

/** What to write and delete when an item's terms change from `before` to `after`. */
export function termChanges(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  const old = new Set(before);
  const next = new Set(after);
  return { added: after.filter((t) => !old.has(t)), removed: before.filter((t) => !next.has(t)) };
}

/** A parsed `search=` value. */
export interface SearchQuery {
  /** The lower-cased words that must each be a substring (quoted phrases are one word). */
  words: string[];
  /** Set when the query has no word of three characters: the whole value must equal it (case-insensitively). */
  exact?: string;
  /** The index term to read: the longest word's longest indexed prefix, or `=<exact>`; absent when none exists. */
  term?: string;
}

/**
 * Parses a search as GitLab's `fuzzy_search` does: quoted phrases and whitespace-separated words,
 * those shorter than three characters left out; none left: the squished query must equal the
 * value. `undefined` for an empty query.
 */
export function parseSearch(query: string): SearchQuery | undefined {
  const squished = squish(query);
  if (!squished) return undefined;
  const quoted = (squished.match(QUOTED) ?? []).map((q) => q.slice(1, -1));
  const rest = squished.replace(QUOTED, ' ').split(' ').filter(Boolean);
  const kept = [...rest, ...quoted].map((w) => w.toLowerCase()).filter((w) => [...w].length >= MIN_SEARCH_WORD);
  if (kept.length === 0) {
    const exact = squished.toLowerCase();
    return { words: [], exact, term: exact.length <= MAX_EXACT_VALUE ? `=${exact}` : undefined };
  }
  const parts = kept.flatMap(words).filter((part) => part.length >= MIN_SEARCH_WORD);
  const longest = parts.sort((a, b) => b.length - a.length)[0];
  return { words: kept, term: longest && termOf(longest) };
}

/**
 * GitLab's rule for one searched column: every word is a substring of it, or (short query) it
 * equals the query; an item matches when any of its searched columns does.
 */
export function matchesSearch(query: SearchQuery, ...texts: Array<string | null | undefined>): boolean {
  return texts.some((text) => {
    if (!text) return false;
    if (query.exact !== undefined) return squish(text).toLowerCase() === query.exact;
    const lower = text.toLowerCase();
    return query.words.every((word) => lower.includes(word));
  });
}
