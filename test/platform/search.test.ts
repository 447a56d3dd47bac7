import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_PREFIX, hasSearchTerm, matchesSearch, parseSearch, searchTerms, termChanges } from '../../shared/platform/search';

const word = fc.stringMatching(/^[a-zA-Z0-9]{1,16}$/);
const text = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));

describe('search terms', () => {
  it('indexes the prefixes of every word of three characters or more, lower-cased', () => {
    expect(searchTerms('Fix login', null)).toEqual(['fix', 'log', 'login']);
    expect(searchTerms('OAuth2-based SSO')).toEqual(['bas', 'based', 'oau', 'oauth', 'sso']);
  });

  it('caps a long word at the longest indexed prefix', () => {
    const terms = searchTerms('internationalization');
    expect(terms.at(-1)).toBe('internationalization'.slice(0, MAX_SEARCH_PREFIX));
    expect(terms.every((term) => term.length <= MAX_SEARCH_PREFIX)).toBe(true);
  });

  it('indexes a short value made of short words whole, for exact matches', () => {
    expect(searchTerms('Go  UI')).toEqual(['=go ui']);
    expect(parseSearch('go ui')).toEqual({ words: [], exact: 'go ui', term: '=go ui' });
    expect(matchesSearch(parseSearch('GO UI')!, 'go ui')).toBe(true);
    expect(matchesSearch(parseSearch('go')!, 'go ui')).toBe(false);
  });

  it('tells whether a text has a term exactly as its terms do (what a reader checks of each entry it loads)', () => {
    const messy = fc.string({ unit: fc.constantFrom(...'aAbBcC1 é-İß#=.Äz'), maxLength: 40 });
    const texts = fc.array(fc.option(messy), { minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(texts, messy, fc.nat(), (values, other, pick) => {
        const own = searchTerms(...values);
        const candidates = [...own, ...searchTerms(other), other.toLowerCase(), `=${other.toLowerCase()}`];
        const term = candidates[pick % candidates.length];
        expect(hasSearchTerm(term, ...values)).toBe(own.includes(term));
      }),
    );
    expect(hasSearchTerm('log', 'Fix login')).toBe(true);
    expect(hasSearchTerm('logi', 'Fix login')).toBe(false); // not an indexed prefix length
    expect(hasSearchTerm('ogi', 'Fix login')).toBe(false);
    expect(hasSearchTerm('=go ui', 'Go  UI')).toBe(true);
  });

  it('tells what an edit adds and removes', () => {
    expect(termChanges(['fix', 'log'], ['log', 'new'])).toEqual({ added: ['new'], removed: ['fix'] });
  });
});

describe('parseSearch and matchesSearch (GitLab fuzzy_search)', () => {
  it('keeps words of three characters or more and quoted phrases; every one must be a substring of one column', () => {
    const query = parseSearch('login "is broken" on')!;
    expect(query.words.sort()).toEqual(['is broken', 'login']);
    expect(matchesSearch(query, 'Login is broken on Safari')).toBe(true);
    expect(matchesSearch(query, 'Login broken', 'it is broken')).toBe(false);
    expect(query.term).toBe('broke');
  });

  it('has no term when no word holds a run of three letters or digits', () => {
    expect(parseSearch('a.b c-d')?.term).toBeUndefined();
    expect(parseSearch('   ')).toBeUndefined();
  });

  it('finds every text by the term of any word prefix of it (the index never misses what it serves)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 3, max: 16 }), (value, pick, length) => {
        const words = value.split(' ').filter((w) => w.length >= 3);
        fc.pre(words.length > 0);
        const query = words[pick % words.length].slice(0, length).toUpperCase();
        const parsed = parseSearch(query)!;
        expect(matchesSearch(parsed, value)).toBe(true);
        expect(searchTerms(value)).toContain(parsed.term);
      }),
    );
  });
});
