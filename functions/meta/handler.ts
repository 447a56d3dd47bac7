import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { apiHandler } from '../api';

// The top-level paths under the API root's subtree: the instance's deploy keys (`/deploy_keys`, admins), `GET /search` and personal snippets (`/snippets`), the deploy keys, search and snippets features' routes, served with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes, ...personalSnippetRoutes };
export const handler = apiHandler('meta', routes);
