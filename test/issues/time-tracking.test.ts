import { describe, expect, it } from 'vitest';
import { presentTimeStats } from '../../shared/issues/presenters/time-stats';
import { formatEstimate, formatTotal, parseDuration } from '../../shared/issues/time-tracking';

const M = 60;
const H = 60 * M;
const D = 8 * H;
const W = 5 * D;

describe('parseDuration', () => {
  it.each([
    ['3h30m', 3 * H + 30 * M],
    ['3h 30m', 3 * H + 30 * M],
    ['1w 2d', W + 2 * D],
    ['1mo', 4 * W],
    ['1d', 8 * H],
    ['45s', 45],
    ['-30m', -30 * M],
    ['- 1h', -H],
    ['2', 2 * H],
    ['1.5h', 90 * M],
    ['1 hour and 30 minutes', 90 * M],
    ['1h, 15m', 75 * M],
    ['  2H  ', 2 * H],
    ['0m', 0],
  ])('reads %j as %i seconds', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it.each(['', '   ', 'soon', '3x', 'h', '1h foo', '--1h', '1h-30m'])('refuses %j', (input) => {
    expect(parseDuration(input)).toBeNull();
  });
});

describe('formatEstimate and formatTotal', () => {
  it('separates the parts of an estimate with spaces and writes a total compactly', () => {
    expect(formatEstimate(3 * H + 30 * M)).toBe('3h 30m');
    expect(formatTotal(3 * H + 30 * M)).toBe('3h30m');
  });

  it('uses working days, weeks and months', () => {
    expect(formatEstimate(W + 2 * D)).toBe('1w 2d');
    expect(formatEstimate(4 * W + D + 5)).toBe('1mo 1d 5s');
    expect(formatTotal(9 * H)).toBe('1d1h');
  });

  it('shows nothing for zero', () => {
    expect(formatEstimate(0)).toBeNull();
    expect(formatTotal(0)).toBeNull();
  });
});

describe('presentTimeStats', () => {
  it('presents a record that never tracked time as zeros', () => {
    expect(presentTimeStats({})).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  });

  it('presents seconds and human strings', () => {
    expect(presentTimeStats({ timeEstimate: 2 * H, totalTimeSpent: 90 * M })).toEqual({
      time_estimate: 2 * H,
      total_time_spent: 90 * M,
      human_time_estimate: '2h',
      human_total_time_spent: '1h30m',
    });
  });
});
