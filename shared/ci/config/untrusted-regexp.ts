/**
 * Regular expressions written by users (GitLab's `Gitlab::UntrustedRegexp`): an input's `regex:`
 * and the patterns of `=~` / `!~` in `rules:if` expressions. The one place such a pattern is
 * compiled, so that the engine can be changed in one place.
 *
 * As GitLab's, they run on RE2's linear-time engine (`re2js`, RE2 in pure JavaScript): no pattern
 * can make a match take longer than linear time in the text, and RE2's syntax is GitLab's (no
 * lookaround, no backreferences: refused as invalid).
 *
 * Semantics kept from GitLab: a pattern is found anywhere in the text (not anchored); the flags of
 * `/pattern/flags` are RE2's `i`, `s`, `m` and `U` (ungreedy, which does not change whether a
 * pattern matches); an invalid pattern is an {@link UntrustedRegexpError}. Pure.
 */
import { RE2JS } from 're2js';

/** A pattern that does not compile (GitLab's `RegexpError`). */
export class UntrustedRegexpError extends Error {}

export interface UntrustedRegexp {
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

/** The flags `/pattern/flags` may carry (GitLab's `RubySyntax::PATTERN`). */
export const PATTERN_FLAGS = /^[ismU]*$/;

/**
 * Compiles `pattern` with `flags` (a subset of `ismU`).
 *
 * @example
 * compileUntrusted('^v\\d+$').test('v12'); // true
 * compileUntrusted('^main$', 'i').test('MAIN'); // true
 */
export function compileUntrusted(pattern: string, flags = ''): UntrustedRegexp {
  if (!PATTERN_FLAGS.test(flags)) throw new UntrustedRegexpError('Invalid regular expression!');
  try {
    // GitLab's `RubySyntax`: the flags become RE2's inline flags.
    const compiled = RE2JS.compile(flags ? `(?${[...new Set(flags)].join('')})${pattern}` : pattern);
    return { test: (text) => compiled.matcher(text).find() };
  } catch (error) {
    throw new UntrustedRegexpError(error instanceof Error ? error.message : 'Invalid regular expression!');
  }
}

/**
 * A `/pattern/flags` string (GitLab's `UntrustedRegexp::RubySyntax`), as `only:`/`except:` refs
 * and `rules:if` patterns write it; `undefined` when `text` does not have that form.
 */
export function fabricateRubySyntax(text: string): UntrustedRegexp | undefined {
  const match = /^\/(.*)\/([ismU]*)$/s.exec(text);
  return match ? compileUntrusted(match[1], match[2]) : undefined;
}
