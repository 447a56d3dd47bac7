import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { apiHandler } from '../api';

// The instance's deploy keys (`/deploy_keys`, admins) and `GET /search`: the deploy keys and search features' routes, served at the API root with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes };
export const handler = apiHandler('meta', routes);
