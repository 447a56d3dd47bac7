import * as z from 'zod';
import { BadRequestError, ParamError, ValidationError } from './errors';

/**
 * Parameter types that accept what GitLab clients send: JSON values, form fields and query
 * strings (everything a string), repeated `name[]` arrays. Each helper coerces the string form
 * first, then validates, so one schema serves JSON, form and query input alike.
 */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const toInt = (value: unknown) => {
  const v = blankToUndefined(value);
  return typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v;
};

const TRUE = new Set(['true', '1', 't', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'f', 'no', 'off']);
const toBool = (value: unknown) => {
  const v = blankToUndefined(value);
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE.has(s)) return true;
    if (FALSE.has(s)) return false;
  }
  if (v === 1 || v === 0) return v === 1;
  return v;
};

const toStringValue = (value: unknown) =>
  value === null ? undefined : typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

const toArray = (value: unknown) => {
  const v = blankToUndefined(value);
  if (v === undefined || Array.isArray(v)) return v;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return [v];
};

const isValidDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

const MISSING = '__missing__';
const INVALID = '__invalid__';
const NOT_ALLOWED = '__not_allowed__';
const TOO_LONG = '__too_long__';

/**
 * A string parameter's length limit (GitLab's model validation `length: { maximum: N }`), checked
 * with the parameters, before anything is read or written: 400
 * `{"message":{"title":["is too long (maximum is 255 characters)"]}}`.
 */
export interface StringLimit {
  /** At most this many characters (code points, as Ruby's `String#length` counts). */
  max: number;
  /** Counted without leading and trailing white space (GitLab strips titles before validating). */
  trim?: boolean;
  /** At most this many UTF-8 bytes as well (storage: a DynamoDB item holds 400 KB). */
  maxBytes?: number;
  /** The attribute GitLab's error names, when it is not the parameter's (`body` → `note`). */
  field?: string;
  /** GitLab's message when it is not `is too long (…)` (an email: `is invalid`). */
  message?: string;
  /**
   * `plain`: GitLab answers the full message as a string (`{"message":"Name is too long (…)"}`,
   * its services' `render_api_error!`) instead of the attribute map.
   */
  plain?: boolean;
}

/** Internal: the length in code points, counted only when the UTF-16 length leaves it in doubt. */
function exceeds(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}

/**
 * A bare string schema that also checks a {@link StringLimit}, for parameters with a coercion of
 * their own (a text that `null` clears, a list of names): `z.preprocess(own, limitedString({ max: 255 }))`.
 */
export function limitedString(limit: StringLimit) {
  return z
    .string()
    .superRefine((raw, ctx) => {
      const value = limit.trim ? raw.trim() : raw;
      const tooManyChars = exceeds(value, limit.max);
      const tooManyBytes = !tooManyChars && limit.maxBytes !== undefined && value.length > limit.maxBytes / 3 && Buffer.byteLength(value, 'utf8') > limit.maxBytes;
      if (!tooManyChars && !tooManyBytes) return;
      const text = limit.message ?? (tooManyChars ? `is too long (maximum is ${limit.max} characters)` : `is too long (maximum is ${limit.maxBytes} bytes)`);
      ctx.addIssue({ code: 'custom', message: TOO_LONG, params: { field: limit.field, text, plain: limit.plain === true } });
    })
    .meta({ maxLength: limit.max });
}

/**
 * Every helper is optional (absent or blank → `undefined`); wrap it in {@link required} when the
 * parameter must be present, which reports `name is missing` like Grape.
 */
export const p = {
  /** A string; with a {@link StringLimit}, at most that long (GitLab's model validation answer). */
  string: (limit?: StringLimit) => z.preprocess(toStringValue, (limit ? limitedString(limit) : z.string()).optional()),
  int: () => z.preprocess(toInt, z.number().int().optional()),
  bool: () => z.preprocess(toBool, z.boolean().optional()),
  /** `YYYY-MM-DD`. */
  date: () => z.preprocess(blankToUndefined, z.string().refine(isValidDate, { message: INVALID }).optional()),
  /** Grape's `DateTime` (ISO 8601 or a date), as an ISO timestamp in UTC: anything unparsable `is invalid`. */
  dateTime: () =>
    z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine((s) => !Number.isNaN(Date.parse(s)), { message: INVALID })
        .transform((s) => new Date(s).toISOString())
        .optional(),
    ),
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.preprocess(blankToUndefined, z.enum(values).optional()),
  array: <T extends z.ZodType>(item: T) => z.preprocess(toArray, z.array(item).optional()),
  /**
   * Integer ids as `name[]` repeats, a JSON array, or one comma-separated string; blank or `null`
   * is `[]` (a list that clears). `item` checks each id further.
   */
  idList: (item: z.ZodType<number> = z.coerce.number().int()) =>
    z.preprocess((value) => (value === '' || value === null ? [] : typeof value === 'string' ? value.split(',').filter((s) => s.trim() !== '') : value), z.array(item).optional()),
  /** Names (labels), comma-separated or an array; blank or `null` is `[]` (a list that clears). Each within `limit`. */
  nameList: (limit: StringLimit) =>
    z.preprocess(
      (value) => (value === '' || value === null ? [] : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value),
      z.array(limitedString(limit)).optional(),
    ),
  /** An id that blank or `null` clears (`null`): `milestone_id`, `assignee_id`. */
  clearableId: () => z.preprocess((value) => (value === '' || value === null ? null : value), z.union([z.null(), z.preprocess(toInt, z.number().int().optional())])),
  /** A text that `null` clears (a number is read as its digits); absent stays `undefined`. */
  clearableText: (limit: StringLimit) =>
    z.preprocess((value) => (typeof value === 'number' ? String(value) : value), limitedString(limit).nullable().optional()),
  /** A user filter of a list (`assignee_id`, `reviewer_id`): a user id, or `None` (nobody) / `Any` (somebody), in any case. */
  noneAnyOrId: () =>
    z.preprocess(
      (value) => (typeof value === 'string' && /^(none|any)$/i.test(value) ? value.toLowerCase() : value),
      z.union([z.literal('none'), z.literal('any'), z.coerce.number().int()]).optional(),
    ),
  /** An integer from a fixed set (access levels): other integers `does not have a valid value`. */
  intOneOf: (values: readonly number[]) =>
    z.preprocess(toInt, z.number().int().refine((v) => values.includes(v), { message: NOT_ALLOWED }).optional()),
};


/**
 * A Grape `type: Hash` parameter: a JSON object, or form and query fields named `name[key]`, which
 * arrive gathered (`collect-params.ts`, as Rack gathers them); anything else `is invalid`. Values
 * are checked by the route.
 */
export const hashParam = () => z.preprocess(blankToUndefined, z.record(z.string(), z.unknown()).optional());

/** Marks a parameter as required: absent or blank values fail with `<name> is missing`. */
export function required<T extends z.ZodType>(schema: T) {
  return schema
    .superRefine((value, ctx) => {
      if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
        ctx.addIssue({ code: 'custom', message: MISSING });
      }
    })
    .transform((value) => value as NonNullable<z.output<T>>);
}

/**
 * Marks a parameter as required the way Grape's `requires` alone does: only an absent value (or
 * `null`) fails with `<name> is missing`; a blank one is passed on, for the model's validations to
 * answer (a badge's `link_url=` is `must be a valid URL`).
 */
export function requiredKey<T extends z.ZodType>(schema: T) {
  return schema
    .superRefine((value, ctx) => {
      if (value === undefined) ctx.addIssue({ code: 'custom', message: MISSING });
    })
    .transform((value) => value as NonNullable<z.output<T>>);
}

/**
 * Validates raw parameters against a route's schema and returns only the declared parameters.
 * Failures become Grape-style errors: `email is missing, username is missing` or
 * `projects_limit is invalid`; when the only failures are {@link StringLimit}s, GitLab's model
 * validation answer `{"message":{"title":["is too long (maximum is 255 characters)"]}}`.
 */
export function parseParams<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const tooLong = result.error.issues.filter((issue) => issue.code === 'custom' && issue.message === TOO_LONG);
  const others = result.error.issues.filter((issue) => !tooLong.includes(issue));
  // Grape's parameter errors come first; lengths are the model's validations, answered after.
  if (others.length === 0) throw lengthError(tooLong);
  const messages = others.map((issue) => {
    // Grape names a nested parameter by its brackets (`filter[environment_scope] is invalid`), an array's value by the array.
    const path = typeof issue.path[issue.path.length - 1] === 'number' ? issue.path.slice(0, -1) : issue.path;
    const name = path.map((key, i) => (i === 0 ? String(key) : `[${String(key)}]`)).join('');
    if (issue.message === MISSING) return `${name} is missing`;
    if (issue.code === 'custom' && issue.message !== INVALID && issue.message !== NOT_ALLOWED) return issue.message;
    // Grape's `values:` validator wording, for a value outside an allowed set.
    if (issue.code === 'invalid_value' || issue.message === NOT_ALLOWED) return `${name} does not have a valid value`;
    return `${name} is invalid`;
  });
  throw new ParamError([...new Set(messages)].join(', '));
}

/** Internal: GitLab's model-validation answer for over-long parameters, by attribute. */
function lengthError(issues: z.core.$ZodIssue[]): ValidationError | BadRequestError {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const { field, text, plain } = (issue as z.core.$ZodIssueCustom).params as { field?: string; text: string; plain: boolean };
    const name = field ?? String(issue.path[0] ?? '');
    if (plain) return new BadRequestError(`${name.charAt(0).toUpperCase()}${name.slice(1).replace(/_/g, ' ')} ${text}`);
    const messages = (fields[name] ??= []);
    if (!messages.includes(text)) messages.push(text);
  }
  return new ValidationError(fields);
}

/** `:id` of a project or group: a numeric id or a URL-encoded full path. */
export const idParam = { id: required(p.string()) };
