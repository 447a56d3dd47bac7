/**
 * Pipeline schedules' cron and time zone (GitLab's `Gitlab::Ci::CronParser`, `CronValidator`,
 * `CronTimezoneValidator` and `Ci::PipelineSchedules::CalculateNextRunService`): whether a cron
 * and a time zone are valid, and the next run of a schedule.
 *
 * The cron is read by `cron-parser` (five fields, or six with seconds first, names of months and
 * days, `L`, `#`, `@daily` and the like) in an IANA time zone (`Europe/Berlin`, `UTC`), daylight
 * saving time included. GitLab runs schedules from a worker on a cron of its own and never sets a
 * next run between two of the worker's runs; here the worker is the CI scheduler, which runs every
 * minute, so the next run is the cron's next time after now, moved up to a whole minute when the
 * cron names seconds.
 *
 * The library (with `luxon`, which it reads time zones with) is loaded on first use, not at the
 * cold start of the functions that import this module.
 */
import type { CronExpressionParser } from 'cron-parser';

type CronParser = typeof CronExpressionParser;

let parser: Promise<CronParser> | undefined;
const cronParser = (): Promise<CronParser> => (parser ??= import('cron-parser').then((module) => module.CronExpressionParser));

/** GitLab's default time zone of a schedule. */
export const DEFAULT_CRON_TIMEZONE = 'UTC';

/** The schedulers' cadence: a schedule runs at most once a minute. */
const TICK_MS = 60_000;

/** Whether `zone` is an IANA time zone this runtime knows (GitLab's `TZInfo::Timezone`). */
export function cronTimezoneValid(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether `cron` is a valid cron expression (checked in UTC, as GitLab's `cron_valid?`). */
export async function cronValid(cron: string): Promise<boolean> {
  if (cron.trim() === '') return false;
  const parse = await cronParser();
  try {
    parse.parse(cron.trim(), { tz: DEFAULT_CRON_TIMEZONE, currentDate: new Date() }).next();
    return true;
  } catch {
    return false;
  }
}

/**
 * The next run of a schedule after `now` (ISO, whole minutes), or null when the cron never runs
 * again (or does not parse: the schedule's writes refuse such a cron first).
 *
 * @example await nextRunAt('0 1 * * 5', 'Asia/Tokyo', new Date('2026-11-28T19:30:10Z')); // '2026-12-03T16:00:00.000Z'
 */
export async function nextRunAt(cron: string, timezone: string, now: Date = new Date()): Promise<string | null> {
  const parse = await cronParser();
  try {
    const next = parse.parse(cron.trim(), { tz: timezone, currentDate: now }).next().getTime();
    return new Date(Math.ceil(next / TICK_MS) * TICK_MS).toISOString();
  } catch {
    return null;
  }
}
