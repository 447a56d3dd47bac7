/** The notification settings feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
export { notificationSettingRoutes as routes } from './notification-settings';
