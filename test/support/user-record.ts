/** A stored user record for unit tests of the data layer (no I/O). */
import { newUserRecord, type User } from '../../shared/users/store/users';

const CREATED = '2024-01-01T00:00:00.000Z';

/** Active user 7 'alice' (namespace 7, no identities, version 1), GitLab's defaults at a fixed time; `overrides` replace fields. */
export function userRecord(overrides: Partial<User> = {}): User {
  return newUserRecord({
    id: 7,
    namespaceId: 7,
    username: 'alice',
    name: 'Alice',
    email: 'alice@example.com',
    projectsLimit: 10,
    confirmedAt: CREATED,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  });
}
