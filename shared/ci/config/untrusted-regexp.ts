/**
 * Regular expressions written by users (GitLab's `Gitlab::UntrustedRegexp`): an input's `regex:`
 * and the patterns of `=~` / `!~` in `rules:if` expressions. The one place such a pattern is
 * compiled, so that the engine can be changed in one place.
 *
 * GitLab compiles them with RE2 (linear time). This module still uses JavaScript's backtracking
 * engine: a linear-time engine (`re2js`) is to replace the body of {@link compileUntrusted} once the
 * dependency is installed. Until then a catastrophic pattern (`(a+)+$`) can take exponential time.
 *
 * Semantics kept from GitLab: a pattern is found anywhere in the text (not anchored); the flags of
 * `/pattern/flags` are RE2's `i`, `s`, `m` and `U` (ungreedy, which does not change whether a
 * pattern matches); an invalid pattern is an {@link UntrustedRegexpError}. Pure.
 */

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
  // RE2 reads leading inline flags (`(?i)^main$`, as GitLab's `/pattern/flags` becomes); JavaScript's engine takes them as flags.
  const inline = /^\(\?([ismU]+)\)/.exec(pattern);
  const source = inline ? pattern.slice(inline[0].length) : pattern;
  const all = flags + (inline?.[1] ?? '');
  try {
    const regex = new RegExp(source, [...new Set(all.replace(/U/g, ''))].join(''));
    return { test: (text) => regex.test(text) };
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
