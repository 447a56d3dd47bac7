/** Parameter pieces the issues feature's routes share (GitLab's Grape types and validators). */
import { z } from 'zod';
import { p } from '../../platform/http/params';

/** A text that `null` clears; absent stays `undefined`. */
export const clearableText = () =>
  z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().nullable().optional());

/** A `YYYY-MM-DD` date that a blank value or `null` clears (`null`); absent stays `undefined`. */
export const clearableDate = () => z.preprocess((value) => (value === '' || value === null ? null : value), z.union([z.null(), p.date()]));

/** Grape's `at_least_one_of`: `a, b are missing, at least one parameter must be provided`. */
export function atLeastOneOf(names: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (names.some((name) => value[name] !== undefined)) return;
    ctx.addIssue({ code: 'custom', message: `${names.join(', ')} are missing, at least one parameter must be provided` });
  };
}
