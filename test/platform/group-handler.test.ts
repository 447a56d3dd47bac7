import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiHandler, type GroupRouteTable } from '../../functions/api';
import { ok } from '../../shared/platform/http/response';
import { route } from '../../shared/platform/http/route';
import { routeCatalog, type GroupName } from '../../shared/catalog';

const stub = route({ params: z.object({}), handler: async () => ok({}) });

describe('apiHandler', () => {
  it.each(Object.keys(routeCatalog) as GroupName[])('loads the %s handler, which implements its whole catalog', async (group) => {
    // Act: importing builds the handler, which checks its routes against the catalog.
    const module = (await import(`../../functions/${group}/handler.ts`)) as { handler: unknown };
    // Assess
    expect(typeof module.handler).toBe('function');
  });

  it('refuses a group whose routes do not match the catalog', () => {
    // Prepare: a route key that is not in the catalog, and one missing.
    const routes = { 'GET /versions': stub } as unknown as GroupRouteTable<'meta'>;
    // Act / Assess
    expect(() => apiHandler('meta', routes)).toThrow(
      "group 'meta' does not implement its catalog: missing [GET /version], extra [GET /versions]",
    );
  });
});
