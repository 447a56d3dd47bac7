import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { routes as notificationSettings } from '../../shared/notification-settings/routes';
import { apiHandler } from '../api';

// The top-level paths under the API root's subtree: the instance's deploy keys (`/deploy_keys`, admins), `GET /search`, personal snippets (`/snippets`) and the caller's notification settings (`/notification_settings`), the deploy keys, search, snippets and notification settings features' routes, served with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes, ...personalSnippetRoutes, ...notificationSettings.meta };
export const handler = apiHandler('meta', routes);
