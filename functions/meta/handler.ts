import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { routes as notificationSettings } from '../../shared/notification-settings/routes';
import { topicRoutes } from '../../shared/projects/routes/topics';
import { apiHandler } from '../api';

// The top-level paths under the API root's subtree: the instance's deploy keys (`/deploy_keys`, admins), `GET /search`, personal snippets (`/snippets`) the caller's notification settings (`/notification_settings`) and project topics (`/topics`), the deploy keys, search, snippets, notification settings and projects features' routes, served with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes, ...personalSnippetRoutes, ...notificationSettings.meta, ...topicRoutes };
export const handler = apiHandler('meta', routes);
