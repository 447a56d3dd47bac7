import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as feature } from '../../shared/meta/routes';
import { apiHandler } from '../api';

// The instance's deploy keys (`/deploy_keys`, admins): the deploy keys feature's routes in this group.
export const routes = { ...feature.meta, ...deployKeys.meta };
export const handler = apiHandler('meta', routes);
