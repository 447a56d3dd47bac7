/**
 * A guard rail over the whole catalog: every route, called by an admin (so every check and write
 * path is reached) with random and hostile parameters (fast-check: wrong types, empty and huge
 * strings, control characters, non-BMP text, arrays, objects, nulls, numbers out of range), never
 * answers a 5xx. Path parameters other than the fixtures' own ids are values nothing else uses
 * (out-of-range, negative, non-numeric), so the test runs beside the others without touching
 * their data; routes that delete run last, so the fixtures live through the rest. The caller is an
 * admin of its own (never the root token other tests use), and the routes that act on the
 * presented token itself (`/personal_access_tokens/self` revoke and rotate) are left out: they
 * take no input to vary and would end the run's credential.
 *
 * And a request answered 4xx writes nothing: on the local runtime every response names the DynamoDB
 * and S3 writes its route made (`X-Route-Writes`, the write audit of shared/platform/write-audit.ts,
 * attributed per request, so the other test files writing beside this one do not count), and a
 * refused request's must be none. The caller's activity date, recorded by the authentication
 * middleware before any route runs (GitLab records activity for any authenticated request), is not
 * the route's and is not counted. Against a deployed API (no such header) only the statuses are checked.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { routeDefinitions } from '../../infra/openapi-routes';
import { allRoutes, type RouteSpec } from '../../shared/catalog';
import { api, baseUrl, isLocalRuntime, rootToken, type ApiResponse } from '../support/api';
import { createGroup, createUser, ownedProject, unique } from '../support/fixtures';

/** Requests per route (`HOSTILE_RUNS=50` for a deeper search than the suite's). */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 4);

/** A value of any JSON type, hostile ones included. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '0', '-1', 'true', 'null', '../..', '%', '%2F', '\u0000', '\uffff', 'x'.repeat(70_000), '2020-13-45', '1e400', '9'.repeat(30)),
  fc.integer(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, 2 ** 53 + 1, 1e308),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** A string longer than a DynamoDB item may be (400 KB). */
const OVERSIZE = 'z'.repeat(420_000);

/** A path parameter nothing else in the run owns. */
const foreignId = fc.constantFrom('999999999', '-1', '0', 'abc', '1.5', '99999999999999999999', 'a%2Fb', '%E2%82%AC');

/** A route's declared parameters (its zod object's fields), path parameters excluded. */
function parameters(route: RouteSpec): Record<string, z.ZodType> {
  const table = routeDefinitions[route.group] as Record<string, { params?: z.ZodType }>;
  const schema = table[route.key]?.params as { shape?: Record<string, z.ZodType> } | undefined;
  const pathNames = new Set([...route.key.matchAll(/:([a-z_]+)\+?/g)].map((m) => m[1]));
  return Object.fromEntries(Object.entries(schema?.shape ?? {}).filter(([name]) => !pathNames.has(name)));
}

describe('every route, with hostile parameters', () => {
  const fixtures: Record<string, string> = {};
  let adminToken = '';
  /** Answers by status class, to show the requests reached the handlers; `audited`: refusals whose writes were known. */
  const answered = { success: 0, refused: 0, audited: 0, wrote: 0 };

  /** A refused request wrote nothing (where the runtime names its writes). */
  function expectNothingWrittenIfRefused(response: ApiResponse<unknown>, what: string): void {
    const writes = response.headers.get('x-route-writes');
    if (response.status < 300 && writes) answered.wrote++;
    if (response.status < 400 || response.status >= 500 || writes === null) return;
    answered.audited++;
    expect(writes, `${what} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)} but wrote`).toBe('');
  }

  beforeAll(async () => {
    const project = await ownedProject('private');
    const group = await createGroup(rootToken(), { path: unique('hostile'), name: unique('Hostile') });
    const user = await createUser();
    adminToken = (await createUser({ admin: true })).token;
    Object.assign(fixtures, { project: String(project.id), group: String(group.id), user: String(user.id) });
  });

  /** The fixture id for a route's `:id`, by the collection it follows. */
  function ownId(route: RouteSpec): string | undefined {
    const collection = /\/(projects|groups|users|namespaces)\/:id/.exec(route.key)?.[1];
    return collection === 'projects' ? fixtures.project : collection === 'groups' || collection === 'namespaces' ? fixtures.group : collection === 'users' ? fixtures.user : undefined;
  }

  /** The fixture id or a foreign one for `:id`; anything else gets a foreign id. */
  function pathValue(route: RouteSpec, name: string): fc.Arbitrary<string> {
    const own = name === 'id' ? ownId(route) : undefined;
    return own ? fc.oneof(fc.constant(own), foreignId) : foreignId;
  }

  // The API routes (the web group's git and upload addresses are exercised by their own suites).
  const routes = allRoutes()
    .filter((route) => route.group !== 'web')
    .filter((route) => !(route.method !== 'GET' && route.key.includes('/personal_access_tokens/self')))
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  it.each(routes.map((route) => [route.key, route] as const))('%s never answers 5xx', async (_key, route) => {
    const declared = parameters(route);
    const names = Object.keys(declared);
    const pathNames = [...route.key.matchAll(/:([a-z_]+)\+?/g)].map((m) => m[1]);
    const request = fc.record({
      path: fc.tuple(...pathNames.map((name) => pathValue(route, name))),
      params: fc.dictionary(fc.constantFrom(...(names.length > 0 ? names : ['unknown'])), hostileValue, { maxKeys: Math.max(1, names.length) }),
      asQuery: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ path, params, asQuery }) => {
        let index = 0;
        const url = route.key.slice(route.method.length + 1).replace(/:([a-z_]+)\+?/g, () => path[index++]);
        const inQuery = asQuery || route.method === 'GET' || route.method === 'DELETE';
        const query = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'object' && value !== null && !Array.isArray(value) ? JSON.stringify(value) : (value as string)]));
        const response = await api(url, { method: route.method as 'GET', token: adminToken, ...(inQuery ? { query } : { body: params }) });
        if (response.status < 300) answered.success++;
        else if (response.status >= 400) answered.refused++;
        expect(response.status, `${route.method} ${url} ${JSON.stringify(params).slice(0, 300)} → ${JSON.stringify(response.body).slice(0, 300)}`).toBeLessThan(500);
        expectNothingWrittenIfRefused(response, `${route.method} ${url} ${JSON.stringify(params).slice(0, 300)}`);
      }),
      // Always tried first: the route's own fixture with a child that does not exist (the commonest refusal).
      { numRuns: RUNS, examples: [[{ path: pathNames.map((name) => (name === 'id' ? ownId(route) : undefined) ?? '999999999'), params: {}, asQuery: false }]] },
    );
    // Each declared parameter alone as a string past DynamoDB's 400 KB item, on the fixture (bodies
    // only: a URL that long is refused before any handler runs). Only the parameters whose own
    // schema takes such a string: the others are refused by the route's validation before any
    // handler runs (400, and the random requests above reach that path already).
    if (route.method === 'POST' || route.method === 'PUT') {
      for (const name of names.filter((n) => declared[n].safeParse(OVERSIZE).success)) {
        let index = 0;
        const url = route.key.slice(route.method.length + 1).replace(/:([a-z_]+)\+?/g, () => (pathNames[index++] === 'id' ? (ownId(route) ?? '999999999') : '999999999'));
        const response = await api(url, { method: route.method, token: adminToken, body: { [name]: OVERSIZE } });
        expect(response.status, `${route.method} ${url} with an oversized ${name} → ${JSON.stringify(response.body).slice(0, 300)}`).toBeLessThan(500);
        expectNothingWrittenIfRefused(response, `${route.method} ${url} with an oversized ${name}`);
      }
    }
  });

  it('reached the handlers: some requests succeeded, many were refused', () => {
    expect(baseUrl()).toMatch(/^https?:\/\//);
    expect(answered.success).toBeGreaterThan(5);
    expect(answered.refused).toBeGreaterThan(100);
    // The local runtime names every handled response's writes: the refusals were checked.
    // …and they see writes: the successful ones of an admin wrote.
    if (isLocalRuntime()) expect(answered.audited).toBeGreaterThan(100);
    if (isLocalRuntime()) expect(answered.wrote).toBeGreaterThan(5);
  });
});
