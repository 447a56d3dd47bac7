/**
 * GitLab's human durations (`ChronicDuration` as `.gitlab-ci.yml` accepts them): `timeout: 1h 30m`,
 * `expire_in: 2 weeks`, a bare number of seconds. Pure.
 */

const UNITS: Array<[RegExp, number]> = [
  [/^(s|sec|secs|second|seconds)$/, 1],
  [/^(m|min|mins|minute|minutes)$/, 60],
  [/^(h|hr|hrs|hour|hours)$/, 3600],
  [/^(d|day|days)$/, 86_400],
  [/^(w|wk|wks|week|weeks)$/, 604_800],
  [/^(mo|mos|month|months)$/, 2_592_000],
  [/^(y|yr|yrs|year|years)$/, 31_557_600],
];

/**
 * Seconds of a duration, or undefined when it does not parse.
 *
 * @example parseDuration('1h 30m'); // 5400
 * @example parseDuration('3600'); // 3600
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase().replace(/\band\b/g, ' ').replace(/,/g, ' ');
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of parts) {
    const factor = UNITS.find(([pattern]) => pattern.test(unit))?.[1];
    if (factor === undefined) return undefined;
    seconds += Number(amount) * factor;
  }
  return Math.floor(seconds);
}
