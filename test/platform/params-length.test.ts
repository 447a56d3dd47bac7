import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ApiError, BadRequestError, ParamError, ValidationError } from '../../shared/platform/http/errors';
import { p, parseParams, required } from '../../shared/platform/http/params';

/** Internal: runs `parseParams` and returns what it threw (fails the test if nothing is thrown). */
function thrown(schema: z.ZodType, raw: Record<string, unknown>): ApiError {
  try {
    parseParams(schema, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected parseParams to throw');
}

describe('parseParams: string length limits (GitLab model validations)', () => {
  const schema = z.object({
    title: required(p.string({ max: 255 })),
    description: p.string({ max: 10, maxBytes: 12 }),
    body: p.string({ max: 5, field: 'note' }),
    email: p.string({ max: 8, message: 'is invalid' }),
    name: p.string({ max: 4, plain: true }),
    tags: p.array(p.string({ max: 3 })),
  });

  it('accepts a value of exactly the maximum length', () => {
    // Act
    const params = parseParams(schema, { title: 't'.repeat(255), description: 'd'.repeat(10) });

    // Assess
    expect(params.title).toHaveLength(255);
    expect(params.description).toHaveLength(10);
  });

  it("answers one character more with GitLab's 400 {message:{field:[…]}}", () => {
    // Act
    const error = thrown(schema, { title: 't'.repeat(256) });

    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.statusCode).toBe(400);
    expect(error.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('counts characters as GitLab does (code points: an emoji is one character)', () => {
    // Act
    const params = parseParams(schema, { title: '😀'.repeat(255) });
    const error = thrown(schema, { title: '😀'.repeat(256) });

    // Assess
    expect(params.title).toBe('😀'.repeat(255));
    expect(error.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('also bounds the UTF-8 bytes where storage needs it', () => {
    // Act: 5 characters, 15 bytes
    const error = thrown(schema, { title: 'x', description: '€'.repeat(5) });

    // Assess
    expect(error.body).toEqual({ message: { description: ['is too long (maximum is 12 bytes)'] } });
  });

  it("names GitLab's attribute, uses its own message, or its plain form when declared", () => {
    // Act
    const note = thrown(schema, { title: 'x', body: 'b'.repeat(6) });
    const email = thrown(schema, { title: 'x', email: 'e'.repeat(9) });
    const name = thrown(schema, { title: 'x', name: 'n'.repeat(5) });

    // Assess
    expect(note.body).toEqual({ message: { note: ['is too long (maximum is 5 characters)'] } });
    expect(email.body).toEqual({ message: { email: ['is invalid'] } });
    expect(name).toBeInstanceOf(BadRequestError);
    expect(name.body).toEqual({ message: 'Name is too long (maximum is 4 characters)' });
  });

  it('lists every over-long field, and checks each element of an array', () => {
    // Act
    const error = thrown(schema, { title: 't'.repeat(300), tags: ['ok', 'long', 'longer'] });

    // Assess
    expect(error.body).toEqual({
      message: { title: ['is too long (maximum is 255 characters)'], tags: ['is too long (maximum is 3 characters)'] },
    });
  });

  it("answers Grape's parameter errors first, as GitLab validates parameters before the model", () => {
    // Act
    const error = thrown(schema, { description: 'd'.repeat(50) });

    // Assess
    expect(error).toBeInstanceOf(ParamError);
    expect(error.body).toEqual({ error: 'title is missing' });
  });

  it('publishes the limit in the JSON schema (maxLength)', () => {
    // Act
    const json = z.toJSONSchema(p.string({ max: 255 }), { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' });

    // Assess
    expect(json).toMatchObject({ maxLength: 255 });
  });
});
