/**
 * The repository feature's web routes. git's smart HTTP is served in front of the web function's
 * route table (`isGitAddress`, `smartHttpHandler`): it speaks git's protocol, not the API's JSON. A
 * POST at the root that is not a git address is the gateway's own 404, like an unknown GET.
 */
import * as z from 'zod';
import { RouteNotFoundError } from '../../platform/http/errors';
import { p } from '../../platform/http/params';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';

export { isGitAddress, smartHttpHandler } from '../smart-http/handler';

export const webRoutes = {
  'POST /:path+': route({
    anonymous: true,
    params: z.object({ path: p.string().optional() }),
    handler: async () => {
      throw new RouteNotFoundError();
    },
  }),
} satisfies RoutesOf<typeof catalog.web>;
