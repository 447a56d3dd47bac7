/** GitLab's `IssuableTimeStats` entity: an issue's time tracking, in seconds and for humans. */
import type { TimeTracked } from '../store/issue-time';
import { formatEstimate, formatTotal } from '../time-tracking';

/**
 * @example presentTimeStats({ timeEstimate: 12600 }); // { time_estimate: 12600, ..., human_time_estimate: '3h 30m' }
 */
export function presentTimeStats(record: TimeTracked) {
  const estimate = Number(record.timeEstimate ?? 0);
  const spent = Number(record.totalTimeSpent ?? 0);
  return {
    time_estimate: estimate,
    total_time_spent: spent,
    human_time_estimate: formatEstimate(estimate),
    human_total_time_spent: formatTotal(spent),
  };
}
