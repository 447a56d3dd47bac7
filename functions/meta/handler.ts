import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { apiHandler } from '../api';

// `GET /search` (the search feature's) is served at the API root with the service's metadata.
export const routes = { ...feature.meta, ...globalSearchRoutes };
export const handler = apiHandler('meta', routes);
