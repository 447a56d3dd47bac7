/** Parameter pieces the issues feature's routes share (GitLab's Grape types and validators). */
import * as z from 'zod';
import { p, type StringLimit } from '../../platform/http/params';
export { NOTE_BODY_LIMIT } from '../commands/notes';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../commands/validation';

/** GitLab's `Issuable`, `Milestone` and `Label` title: 255 characters. */
export const TITLE_LIMIT = { max: MAX_TITLE_LENGTH, trim: true } as const satisfies StringLimit;
/**
 * A description (issues, milestones, labels): GitLab allows 1,048,576 characters; a DynamoDB item
 * holds 400 KB, so {@link MAX_DESCRIPTION_LENGTH} (65,535: at 4 bytes a character, it still fits).
 */
export const DESCRIPTION_LIMIT = { max: MAX_DESCRIPTION_LENGTH } as const satisfies StringLimit;

/** A text that `null` clears; absent stays `undefined`. At most {@link DESCRIPTION_LIMIT} unless told. */
export const clearableText = (limit: StringLimit = DESCRIPTION_LIMIT) => p.clearableText(limit);

/** A timestamp, whose date part a date parameter takes (`2020-01-01T00:00:00Z` → `2020-01-01`), as GitLab's date columns cast it. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3])(:?[0-5]\d)?)?$/i;

/** A date (`due_date`, `start_date`): `YYYY-MM-DD`, or a timestamp read as its date; a blank value or `null` clears (`null`); absent stays `undefined`. */
export const clearableDate = () =>
  z.preprocess(
    (value) => (value === '' || value === null ? null : typeof value === 'string' ? (TIMESTAMP.exec(value)?.[1] ?? value) : value),
    z.union([z.null(), p.date()]),
  );

/** Grape's `at_least_one_of`: `a, b are missing, at least one parameter must be provided`. */
export function atLeastOneOf(names: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (names.some((name) => value[name] !== undefined)) return;
    ctx.addIssue({ code: 'custom', message: `${names.join(', ')} are missing, at least one parameter must be provided` });
  };
}
