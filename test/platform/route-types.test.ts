/**
 * A route's response type is its presenter's: `route()` keeps the body type of what the handler
 * returns (`ok(presentHook(...))`), so clients of the route tables (the OpenAPI generator, tests)
 * can name it. These are compile-time assertions (checked by `tsc` in `npm test`) plus the
 * run-time shape of the helpers.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type routes as hooks } from '../../shared/hooks/routes';
import type { presentHook } from '../../shared/hooks/presenters/hooks';
import { type routes as meta } from '../../shared/meta/routes';
import type { ResponseOf } from '../../shared/platform/http/route';
import { created, emptyOk, noContent, ok } from '../../shared/platform/http/response';
import type { presentUserAdmin } from '../../shared/users/presenters/users';
import { type routes as users } from '../../shared/users/routes';

describe('route response types', () => {
  it('are the presenters\' return types', () => {
    expectTypeOf<ResponseOf<(typeof meta.meta)['GET /version']>>().toEqualTypeOf<{ version: string; revision: string }>();
    expectTypeOf<ResponseOf<(typeof hooks.hooks)['GET /projects/:id/hooks/:hook_id']>>().toEqualTypeOf<ReturnType<typeof presentHook>>();
    // A route answering an entity or an empty 200 answers the entity's type.
    expectTypeOf<ResponseOf<(typeof users.users)['DELETE /users/:id']>>().toEqualTypeOf<ReturnType<typeof presentUserAdmin>>();
  });

  it('keep the status codes of the response helpers', () => {
    expect(ok({ a: 1 }, { 'X-Total': '1' })).toEqual({ statusCode: 200, body: { a: 1 }, headers: { 'X-Total': '1' } });
    expect(created({ a: 1 })).toEqual({ statusCode: 201, body: { a: 1 } });
    expect(noContent()).toEqual({ statusCode: 204 });
    expect(emptyOk()).toEqual({ statusCode: 200 });
  });
});
