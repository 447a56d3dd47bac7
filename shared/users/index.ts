export { authenticate, trackActivity } from './authenticate';
export { findUserOrNotFound } from './finders';
export { presentUserPublic } from './presenters/users';
export type { AccessToken } from './store/tokens';
export { getUser, userFromItem, userIsLive } from './store/users';
export type { User } from './store/users';
