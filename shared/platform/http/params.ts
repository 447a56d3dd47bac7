import { z } from 'zod';
import { ParamError } from './errors';

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

/**
 * Every helper is optional (absent or blank → `undefined`); wrap it in {@link required} when the
 * parameter must be present, which reports `name is missing` like Grape.
 */
export const p = {
  string: () => z.preprocess(toStringValue, z.string().optional()),
  int: () => z.preprocess(toInt, z.number().int().optional()),
  bool: () => z.preprocess(toBool, z.boolean().optional()),
  /** `YYYY-MM-DD`. */
  date: () => z.preprocess(blankToUndefined, z.string().refine(isValidDate, { message: INVALID }).optional()),
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.preprocess(blankToUndefined, z.enum(values).optional()),
  array: <T extends z.ZodType>(item: T) => z.preprocess(toArray, z.array(item).optional()),
  /** An integer from a fixed set (access levels): other integers `does not have a valid value`. */
  intOneOf: (values: readonly number[]) =>
    z.preprocess(toInt, z.number().int().refine((v) => values.includes(v), { message: NOT_ALLOWED }).optional()),
};


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
 * Validates raw parameters against a route's schema and returns only the declared parameters.
 * Failures become Grape-style errors: `email is missing, username is missing` or
 * `projects_limit is invalid`.
 */
export function parseParams<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => {
    const name = issue.path.length > 0 ? String(issue.path[0]) : '';
    if (issue.message === MISSING) return `${name} is missing`;
    if (issue.code === 'custom' && issue.message !== INVALID && issue.message !== NOT_ALLOWED) return issue.message;
    // Grape's `values:` validator wording, for a value outside an allowed set.
    if (issue.code === 'invalid_value' || issue.message === NOT_ALLOWED) return `${name} does not have a valid value`;
    return `${name} is invalid`;
  });
  throw new ParamError([...new Set(messages)].join(', '));
}

/** `:id` of a project or group: a numeric id or a URL-encoded full path. */
export const idParam = { id: required(p.string()) };
