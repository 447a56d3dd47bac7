/** A stored user record for unit tests of the data layer (no I/O). */
import type { User } from '../../shared/users/store/users';

/** Active user 7 'alice' (namespace 7, no identities, version 1); `overrides` replace fields. */
export function userRecord(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    username: 'alice',
    name: 'Alice',
    email: 'alice@example.com',
    state: 'active',
    admin: false,
    bio: '',
    location: '',
    skype: '',
    linkedin: '',
    twitter: '',
    websiteUrl: '',
    organization: '',
    projectsLimit: 10,
    canCreateGroup: true,
    external: false,
    passwordDigest: null,
    passwordExpiresAt: null,
    confirmedAt: '2024-01-01T00:00:00.000Z',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    lastSignInAt: null,
    currentSignInAt: null,
    lastActivityOn: null,
    colorSchemeId: 1,
    twoFactorEnabled: false,
    identities: [],
    namespaceId: 7,
    version: 1,
    ...overrides,
  };
}
