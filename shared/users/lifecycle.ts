/**
 * Listeners of users created and deleted, registered by the composition root (`functions/api.ts`):
 * features built on users (the hooks' `user_create` and `user_destroy` system events) cannot be
 * imported here.
 */
import { listenersOf } from '../platform/listeners';
import type { User } from './store/users';

const userCreated = listenersOf<User>('user created', (user) => ({ userId: user.id }));
/** Registers what another feature does once a user is created. */
export const onUserCreated = userCreated.on;
/** Tells the listeners a user was created; never throws. */
export const notifyUserCreated = userCreated.notify;

const userDestroyed = listenersOf<User>('user destroyed', (user) => ({ userId: user.id }));
/** Registers what another feature does once a user is deleted, its item gone. */
export const onUserDestroyed = userDestroyed.on;
/** Tells the listeners a user was deleted; never throws. */
export const notifyUserDestroyed = userDestroyed.notify;
