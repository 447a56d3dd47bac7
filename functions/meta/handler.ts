import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { userCountRoutes } from '../../shared/merge-requests/routes/user-counts';
import { systemHookRoutes } from '../../shared/hooks/routes/system-hooks';
import { routes as feature } from '../../shared/meta/routes';
import { globalSearchRoutes } from '../../shared/search/routes/global';
import { personalSnippetRoutes } from '../../shared/snippets/routes/personal';
import { routes as notificationSettings } from '../../shared/notification-settings/routes';
import { topicRoutes } from '../../shared/projects/routes/topics';
import { apiHandler } from '../api';

// The top-level paths under the API root's subtree: the instance's deploy keys (`/deploy_keys`, admins), `GET /search`, personal snippets (`/snippets`), the caller's notification settings (`/notification_settings`), project topics (`/topics`), `GET /user_counts` and system hooks (`/hooks`, admins): the deploy keys, search, snippets, notification settings, projects, merge requests and hooks features' routes, served with the service's metadata.
export const routes = { ...feature.meta, ...deployKeys.meta, ...globalSearchRoutes, ...personalSnippetRoutes, ...notificationSettings.meta, ...topicRoutes, ...userCountRoutes, ...systemHookRoutes };
export const handler = apiHandler('meta', routes);
