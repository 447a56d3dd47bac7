import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { systemHookRoutes } from '../../shared/hooks/routes/system-hooks';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { apiHandler } from '../api';

// The top-level paths under the API root's subtree: the instance's deploy keys (`/deploy_keys`, admins), `GET /search`, personal snippets (`/snippets`) and system hooks (`/hooks`, admins), the deploy keys, search, snippets and hooks features' routes, served with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes, ...personalSnippetRoutes, ...systemHookRoutes };
export const handler = apiHandler('meta', routes);
