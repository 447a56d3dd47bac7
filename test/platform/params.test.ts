import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ParamError } from '../../shared/platform/http/errors';
import { hashParam, p, parseParams, required } from '../../shared/platform/http/params';

/** Internal: runs `parseParams` and returns the thrown ParamError (fails the test if nothing is thrown). */
function paramError(schema: z.ZodType, raw: Record<string, unknown>): ParamError {
  try {
    parseParams(schema, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ParamError);
    return error as ParamError;
  }
  throw new Error('expected parseParams to throw a ParamError');
}

describe('parseParams: required parameters', () => {
  const schema = z.object({
    email: required(p.string()),
    username: required(p.string()),
    name: p.string(),
  });

  it('reports a missing required parameter as a 400 `<name> is missing`', () => {
    // Act
    const error = paramError(schema, { username: 'alice' });

    // Assess
    expect(error.statusCode).toBe(400);
    expect(error.body).toEqual({ error: 'email is missing' });
  });

  it('joins several missing parameters with ", " in declaration order', () => {
    // Act
    const error = paramError(schema, { name: 'Alice' });

    // Assess
    expect(error.body).toEqual({ error: 'email is missing, username is missing' });
  });

  it.each([[''], ['   '], [null]])('treats the blank value %j as missing', (blank) => {
    // Act
    const error = paramError(schema, { email: blank, username: 'alice' });

    // Assess
    expect(error.body).toEqual({ error: 'email is missing' });
  });

  it('returns the declared values when every required parameter is present', () => {
    // Act
    const params = parseParams(schema, { email: 'a@example.com', username: 'alice' });

    // Assess
    expect(params).toEqual({ email: 'a@example.com', username: 'alice' });
  });

  it('reports a required int that is present but not a number as invalid, not missing', () => {
    // Act
    const error = paramError(z.object({ id: required(p.int()) }), { id: 'abc' });

    // Assess
    expect(error.body).toEqual({ error: 'id is invalid' });
  });
});

describe('parseParams: int', () => {
  const schema = z.object({ x: p.int() });

  it.each([
    ['12', 12],
    [' 12 ', 12],
    ['-3', -3],
    [7, 7],
  ])('reads %j as %j', (raw, expected) => {
    // Act
    const params = parseParams(schema, { x: raw });

    // Assess
    expect(params).toEqual({ x: expected });
  });

  it.each([['abc'], ['12.5'], ['1e3'], [true], [1.5]])('rejects %j as `x is invalid`', (raw) => {
    // Act
    const error = paramError(schema, { x: raw });

    // Assess
    expect(error.body).toEqual({ error: 'x is invalid' });
  });

  it.each([[''], [null], [undefined]])('reads the blank value %j as undefined', (raw) => {
    // Act
    const params = parseParams(schema, { x: raw });

    // Assess
    expect(params.x).toBeUndefined();
  });
});

describe('parseParams: bool', () => {
  const schema = z.object({ flag: p.bool() });

  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    ['TRUE', true],
    ['yes', true],
    ['off', false],
    [true, true],
    [false, false],
    [1, true],
    [0, false],
  ])('reads %j as %j', (raw, expected) => {
    // Act
    const params = parseParams(schema, { flag: raw });

    // Assess
    expect(params).toEqual({ flag: expected });
  });

  it.each([['maybe'], [2], ['2']])('rejects %j as `flag is invalid`', (raw) => {
    // Act
    const error = paramError(schema, { flag: raw });

    // Assess
    expect(error.body).toEqual({ error: 'flag is invalid' });
  });

  it('reads a blank value as undefined', () => {
    // Act
    const params = parseParams(schema, { flag: '' });

    // Assess
    expect(params.flag).toBeUndefined();
  });
});

describe('parseParams: string and oneOf', () => {
  it('reads null for an optional string as undefined, like the other helpers', () => {
    // Act
    const params = parseParams(z.object({ bio: p.string() }), { bio: null });

    // Assess
    expect(params).toEqual({ bio: undefined });
  });

  it('keeps an empty optional string (clients clear a field by sending it empty)', () => {
    // Act
    const params = parseParams(z.object({ bio: p.string() }), { bio: '' });

    // Assess
    expect(params).toEqual({ bio: '' });
  });

  it('turns numbers and booleans into their string form', () => {
    // Act
    const params = parseParams(z.object({ a: p.string(), b: p.string() }), { a: 42, b: false });

    // Assess
    expect(params).toEqual({ a: '42', b: 'false' });
  });

  it('accepts a listed value and rejects another one as invalid', () => {
    // Prepare
    const schema = z.object({ sort: p.oneOf(['asc', 'desc']) });

    // Act
    const accepted = parseParams(schema, { sort: 'desc' });
    const error = paramError(schema, { sort: 'sideways' });

    // Assess
    expect(accepted).toEqual({ sort: 'desc' });
    expect(error.body).toEqual({ error: 'sort does not have a valid value' });
  });
});

describe('parseParams: date', () => {
  const schema = z.object({ from: p.date() });

  it.each([['2024-02-29'], ['2023-12-31'], ['2000-01-01']])('accepts %s', (raw) => {
    // Act
    const params = parseParams(schema, { from: raw });

    // Assess
    expect(params).toEqual({ from: raw });
  });

  it.each([['2024-02-30'], ['2023-02-29'], ['2024-1-5']])(
    'rejects %s as `from is invalid`',
    (raw) => {
      // Act
      const error = paramError(schema, { from: raw });

      // Assess
      expect(error.statusCode).toBe(400);
      expect(error.body).toEqual({ error: 'from is invalid' });
    },
  );

  it('reads a blank date as undefined', () => {
    // Act
    const params = parseParams(schema, { from: '' });

    // Assess
    expect(params.from).toBeUndefined();
  });
});

describe('parseParams: array', () => {
  it('takes repeated values (`name[]=a&name[]=b`, collected into an array) as they are', () => {
    // Act
    const params = parseParams(z.object({ scopes: p.array(p.string()) }), { scopes: ['api', 'read_user'] });

    // Assess
    expect(params).toEqual({ scopes: ['api', 'read_user'] });
  });

  it('splits a comma-separated string, trimming and dropping empty entries', () => {
    // Act
    const params = parseParams(z.object({ scopes: p.array(p.string()) }), { scopes: 'api, read_user,,sudo' });

    // Assess
    expect(params).toEqual({ scopes: ['api', 'read_user', 'sudo'] });
  });

  it('coerces each element of a JSON array with the item schema', () => {
    // Act
    const params = parseParams(z.object({ ids: p.array(p.int()) }), { ids: [1, '2', ' 3 '] });

    // Assess
    expect(params).toEqual({ ids: [1, 2, 3] });
  });

  it('wraps a single non-string value in an array', () => {
    // Act
    const params = parseParams(z.object({ ids: p.array(p.int()) }), { ids: 5 });

    // Assess
    expect(params).toEqual({ ids: [5] });
  });

  it('reports an array with an invalid element as invalid', () => {
    // Act
    const error = paramError(z.object({ ids: p.array(p.int()) }), { ids: ['1', 'two'] });

    // Assess
    expect(error.body).toEqual({ error: 'ids is invalid' });
  });

  it('checks listed values element by element', () => {
    // Prepare
    const schema = z.object({ scopes: p.array(p.oneOf(['api', 'read_user'])) });

    // Act
    const error = paramError(schema, { scopes: 'api,write_everything' });

    // Assess
    expect(error.body).toEqual({ error: 'scopes does not have a valid value' });
  });

  it('reads a blank array as undefined', () => {
    // Act
    const params = parseParams(z.object({ ids: p.array(p.int()) }), { ids: '' });

    // Assess
    expect(params.ids).toBeUndefined();
  });
});

describe('parseParams: output', () => {
  it('drops parameters the schema does not declare', () => {
    // Prepare
    const schema = z.object({ name: p.string(), admin: p.bool() });

    // Act
    const params = parseParams(schema, { name: 'Alice', admin: 'false', is_admin: 'true', private_token: 'secret' });

    // Assess
    expect(params).toEqual({ name: 'Alice', admin: false });
    expect(Object.keys(params).sort()).toEqual(['admin', 'name']);
  });

  it('reports each distinct failure once, missing and invalid together', () => {
    // Prepare
    const schema = z.object({ email: required(p.string()), projects_limit: p.int() });

    // Act
    const error = paramError(schema, { projects_limit: 'lots' });

    // Assess
    expect(error.body).toEqual({ error: 'email is missing, projects_limit is invalid' });
  });

  it('passes the message of an object-level custom issue through unchanged', () => {
    // Prepare
    const schema = z
      .object({ password: p.string(), reset_password: p.bool() })
      .superRefine((value, ctx) => {
        if (value.password === undefined && !value.reset_password) {
          ctx.addIssue({ code: 'custom', message: 'password, reset_password are missing, at least one parameter must be provided' });
        }
      });

    // Act
    const error = paramError(schema, {});

    // Assess
    expect(error.body).toEqual({
      error: 'password, reset_password are missing, at least one parameter must be provided',
    });
  });
});

describe('parseParams: Hash parameters (hashParam)', () => {
  const schema = z.object({ ref: p.string(), variables: hashParam(), filter: z.object({ environment_scope: p.string() }).optional() });

  it('takes an object, leaves an absent hash out, and refuses a value that is not one by its bracketed name', () => {
    // Act
    const params = parseParams(schema, { ref: 'main', variables: { A: '1', B_2: 'two' } });
    const absent = parseParams(schema, { ref: 'main' });
    const error = paramError(schema, { variables: 'A=1' });
    const nested = paramError(schema, { filter: { environment_scope: ['a'] } });

    // Assess
    expect(params).toEqual({ ref: 'main', variables: { A: '1', B_2: 'two' } });
    expect(absent).toEqual({ ref: 'main' });
    expect(error.body).toEqual({ error: 'variables is invalid' });
    expect(nested.body).toEqual({ error: 'filter[environment_scope] is invalid' });
  });
});
