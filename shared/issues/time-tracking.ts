/**
 * Time-tracking durations as GitLab reads and writes them (`Gitlab::TimeTrackingFormatter` over
 * ChronicDuration with GitLab's lengths: 1mo = 4w, 1w = 5d, 1d = 8h). Pure functions.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** A working day. */
const DAY = 8 * HOUR;
/** A working week. */
const WEEK = 5 * DAY;
/** Four working weeks. */
const MONTH = 4 * WEEK;

/** Unit words (ChronicDuration's spellings) → seconds. */
const UNITS: Record<string, number> = Object.fromEntries(
  (
    [
      [['s', 'sec', 'secs', 'second', 'seconds'], 1],
      [['m', 'min', 'mins', 'minute', 'minutes'], MINUTE],
      [['h', 'hr', 'hrs', 'hour', 'hours'], HOUR],
      [['d', 'day', 'days'], DAY],
      [['w', 'wk', 'wks', 'week', 'weeks'], WEEK],
      [['mo', 'mon', 'mos', 'mons', 'month', 'months'], MONTH],
    ] as const
  ).flatMap(([names, seconds]) => names.map((name) => [name, seconds] as const)),
);

/** One number with an optional unit; a number without one is hours (GitLab's `default_unit`). */
const TOKEN = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)/y;

/**
 * Parses a human duration into whole seconds, `null` when it is not one. A leading `-` negates it
 * (only `add_spent_time` accepts that). Parts may be separated by spaces, commas or `and`.
 *
 * @example
 * parseDuration('3h30m'); // 12600
 * parseDuration('1w 2d'); // 201600 (a week is 5 days of 8 hours)
 * parseDuration('-30m'); // -1800
 * parseDuration('soon'); // null
 */
export function parseDuration(input: string): number | null {
  let text = input.trim().toLowerCase();
  let sign = 1;
  if (text.startsWith('-')) {
    sign = -1;
    text = text.slice(1).trimStart();
  }
  let seconds = 0;
  let parts = 0;
  let at = 0;
  const separator = /(?:\s|,|\band\b)*/y;
  for (;;) {
    separator.lastIndex = at;
    separator.exec(text);
    at = separator.lastIndex;
    if (at >= text.length) break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (!match) return null;
    const unit = match[2] === '' ? HOUR : UNITS[match[2]];
    if (unit === undefined) return null;
    seconds += Number(match[1]) * unit;
    parts++;
    at = TOKEN.lastIndex;
  }
  if (parts === 0) return null;
  const result = sign * Math.round(seconds);
  return Number.isSafeInteger(result) ? result : null;
}

const OUTPUT_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['mo', MONTH],
  ['w', WEEK],
  ['d', DAY],
  ['h', HOUR],
  ['m', MINUTE],
  ['s', 1],
];

/** Internal: the non-zero parts of a duration, largest unit first (`['3h', '30m']`). */
function parts(seconds: number): string[] {
  let rest = Math.abs(seconds);
  const out: string[] = [];
  for (const [name, size] of OUTPUT_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) out.push(`${count}${name}`);
  }
  if (seconds < 0 && out.length > 0) out[0] = `-${out[0]}`;
  return out;
}

/**
 * An estimate for humans, parts separated by spaces; `null` for 0 (GitLab shows nothing).
 * @example formatEstimate(12600); // '3h 30m'
 */
export function formatEstimate(seconds: number): string | null {
  return seconds === 0 ? null : parts(seconds).join(' ');
}

/**
 * A total time spent for humans, compactly; `null` for 0.
 * @example formatTotal(12600); // '3h30m'
 */
export function formatTotal(seconds: number): string | null {
  return seconds === 0 ? null : parts(seconds).join('');
}
