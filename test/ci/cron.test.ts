/**
 * Pipeline schedules' cron (`shared/ci/config/cron.ts`), as GitLab's `Gitlab::Ci::CronParser`
 * reads it: the next run after now in the schedule's IANA time zone (daylight saving time
 * included), whole minutes (the scheduler runs every minute), and which crons and zones are valid.
 */
import { describe, expect, it } from 'vitest';
import { cronTimezoneValid, cronValid, nextRunAt } from '../../shared/ci/config/cron';

const NOW = new Date('2026-11-28T19:30:10.500Z'); // a Saturday

describe('next run of a schedule', () => {
  it.each([
    ['* * * * *', 'UTC', '2026-11-28T19:31:00.000Z'],
    ['0 1 * * 5', 'UTC', '2026-12-04T01:00:00.000Z'],
    // Friday 01:00 in Tokyo (UTC+9) is Thursday 16:00 UTC.
    ['0 1 * * 5', 'Asia/Tokyo', '2026-12-03T16:00:00.000Z'],
    // 09:00 in New York: UTC-5 in winter, UTC-4 in summer.
    ['0 9 * * *', 'America/New_York', '2026-11-29T14:00:00.000Z'],
    ['0 9 1 7 *', 'America/New_York', '2027-07-01T13:00:00.000Z'],
    ['30 2 * * MON-FRI', 'Europe/Berlin', '2026-11-30T01:30:00.000Z'],
    ['@daily', 'UTC', '2026-11-29T00:00:00.000Z'],
    // Seconds (six fields): at 19:30:15, run at the next whole minute (the scheduler runs once a minute).
    ['15 * * * * *', 'UTC', '2026-11-28T19:31:00.000Z'],
  ])('%s in %s runs next at %s', async (cron, zone, expected) => {
    expect(await nextRunAt(cron, zone, NOW)).toBe(expected);
  });

  it('accepts crons and IANA zones GitLab accepts, refuses the others', async () => {
    expect(await Promise.all(['0 1 * * *', '*/5 * * * *', '0 0 L * *', '0 22 * * 1-5'].map(cronValid))).toEqual([true, true, true, true]);
    expect(await Promise.all(['', '   ', '61 * * * *', 'every day', '0 0 30 2 *'].map(cronValid))).toEqual([false, false, false, false, false]);
    expect(['UTC', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires'].map(cronTimezoneValid)).toEqual([true, true, true]);
    expect(['', 'Mars/Phobos', ' UTC'].map(cronTimezoneValid)).toEqual([false, false, false]);
  });
});
