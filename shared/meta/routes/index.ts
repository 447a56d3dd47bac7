/**
 * Service metadata: `GET /version` and `GET /metadata` (what glab and other clients read to learn
 * the server's version and features), as GitLab answers them (authentication required), and
 * `GET /openapi.json`, the API's OpenAPI document (anyone may read it).
 *
 * The document is the generated `openapi.json` at the repository root (`npm run openapi`, checked
 * up to date by a unit test), bundled into this function by esbuild; it is imported on the first
 * request for it, so the meta function's cold start does not parse it.
 */
import { config } from '../../platform/config';
import { ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';

export const routes = {
  meta: {
    'GET /version': route({
      params: noParams,
      handler: async () => ok({ version: config().version, revision: config().revision }),
    }),
    // GitLab's `API::Metadata`: no KAS (agent server) here, and no enterprise features.
    'GET /metadata': route({
      params: noParams,
      handler: async () =>
        ok({ version: config().version, revision: config().revision, kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }, enterprise: false }),
    }),
    'GET /openapi.json': route({
      params: noParams,
      anonymous: true,
      handler: async () => ok((await import('../../../openapi.json', { with: { type: 'json' } })).default),
    }),
  } satisfies RoutesOf<typeof catalog.meta>,
};
