import { routes as feature } from '../../shared/meta/routes';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { apiHandler } from '../api';

// Personal snippets (`/snippets`, top-level paths under the API root's subtree): the snippets feature's routes in this group.
export const routes = { ...feature.meta, ...personalSnippetRoutes };
export const handler = apiHandler('meta', routes);
