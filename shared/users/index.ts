export { authenticate, authenticateGitCredentials, trackActivity } from './authenticate';
export { findUserOrNotFound } from './finders';
export { presentUserPublic } from './presenters/users';
export { backfillUserSearchEntries, findUserByUsername, getUser, userFromItem, userIsLive, type User } from './store/users';
export { userKeys } from './store/keys';
export { removeWithUser, type UserRemoval } from './commands/delete-user';
