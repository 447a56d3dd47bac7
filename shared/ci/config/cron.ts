/**
 * Pipeline schedules' cron and time zone (GitLab's `Gitlab::Ci::CronParser`, `CronValidator`,
 * `CronTimezoneValidator` and `Ci::PipelineSchedules::CalculateNextRunService`): whether a cron
 * and a time zone are valid, and the next run of a schedule.
 *
 * The cron is read by `cron-parser` (five fields, or six with seconds first, names of months and
 * days, `L`, `#`, `@daily` and the like) in the schedule's time zone, daylight saving time
 * included: an IANA name (`Europe/Berlin`) or, as GitLab's `ActiveSupport::TimeZone` takes it, a
 * Rails name (`Pacific Time (US & Canada)`, `Berlin`: `time-zones.ts`), read as its IANA zone. GitLab runs schedules from a worker on a cron of its own and never sets a
 * next run between two of the worker's runs; here the worker is the CI scheduler, which runs every
 * minute, so the next run is the cron's next time after now, moved up to a whole minute when the
 * cron names seconds.
 *
 * The library (with `luxon`, which it reads time zones with) is loaded on first use, not at the
 * cold start of the functions that import this module.
 */
import type { CronExpressionParser } from 'cron-parser';
import { RAILS_TIME_ZONES } from './time-zones';

type CronParser = typeof CronExpressionParser;

let parser: Promise<CronParser> | undefined;
const cronParser = (): Promise<CronParser> => (parser ??= import('cron-parser').then((module) => module.CronExpressionParser));

/** GitLab's default time zone of a schedule. */
export const DEFAULT_CRON_TIMEZONE = 'UTC';

/** The schedulers' cadence: a schedule runs at most once a minute. */
const TICK_MS = 60_000;

/** The IANA zone a schedule's time zone names: a Rails name's zone, else the name itself. */
export const ianaZone = (zone: string): string => RAILS_TIME_ZONES.get(zone) ?? zone;

/**
 * Whether `zone` is a time zone GitLab accepts (`ActiveSupport::TimeZone.find_tzinfo`): a Rails
 * name, or an IANA time zone this runtime knows (`TZInfo::Timezone`).
 */
export function cronTimezoneValid(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: ianaZone(zone) });
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
 * @example await nextRunAt('0 1 * * *', 'Pacific Time (US & Canada)', new Date('2026-11-28T19:30:10Z')); // '2026-11-29T09:00:00.000Z'
 */
export async function nextRunAt(cron: string, timezone: string, now: Date = new Date()): Promise<string | null> {
  const parse = await cronParser();
  try {
    const next = parse.parse(cron.trim(), { tz: ianaZone(timezone), currentDate: now }).next().getTime();
    return new Date(Math.ceil(next / TICK_MS) * TICK_MS).toISOString();
  } catch {
    return null;
  }
}
