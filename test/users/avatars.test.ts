/**
 * Where a user's avatar shows beyond the User entity (GitLab's `avatar_url` delegated to the
 * owner): users in webhook payloads (`User#hook_attrs`), the pusher's `user_avatar` of push
 * payloads, and a personal namespace's `avatar_url` (the namespace item's copy of its owner's).
 * Groups' own avatars in the Namespace entity are covered over HTTP (test/groups/avatars.integration.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { HookDeliveryContext } from '../../shared/hooks/deliver';
import { userHookAttrs } from '../../shared/hooks/presenters/webhooks';
import { presentNamespace } from '../../shared/namespaces/presenters/namespaces';
import { personalNamespace, personalNamespaceUpdate, type Namespace } from '../../shared/namespaces/store/namespaces';
import type { Project } from '../../shared/projects/store/projects';
import type { PushHookEvent } from '../../shared/repository/push/webhooks/events';
import { pushHookPayload } from '../../shared/repository/push/webhooks/payloads';
import type { StoredAvatar } from '../../shared/users/avatars';
import type { User } from '../../shared/users/store/users';
import { withEnvironment } from '../support/environment';

withEnvironment({ EXTERNAL_URL: 'https://git.example.com/', SSH_HOST: undefined });

const AVATAR: StoredAvatar = { filename: 'me.png', token: '0123456789abcdef0123456789abcdef', contentType: 'image/png' };
const URL = 'https://git.example.com/uploads/-/system/user/avatar/4/me.png';

const john = { id: 4, username: 'jsmith', name: 'John Smith', email: 'john@example.com', avatar: AVATAR } as unknown as User;
const plain = { id: 5, username: 'plain', name: 'Plain', email: 'plain@example.com' } as unknown as User;

describe('a user’s avatar in webhook payloads', () => {
  it('shows the avatar’s URL as a user’s avatar_url, null without one', () => {
    // Act
    const withAvatar = userHookAttrs(john);
    const without = userHookAttrs(plain);
    // Assess
    expect(withAvatar).toEqual({ id: 4, name: 'John Smith', username: 'jsmith', avatar_url: URL, email: '[REDACTED]' });
    expect(without.avatar_url).toBeNull();
  });

  it('shows the pusher’s avatar as user_avatar of a push payload', () => {
    // Arrange
    const project = { id: 15, name: 'Diaspora', path: 'diaspora', description: '', defaultBranch: 'master', visibility: 'private' } as Project;
    const namespace = { id: 3, kind: 'user', name: 'jsmith', path: 'jsmith', fullPath: 'jsmith' } as Namespace;
    const ctx: HookDeliveryContext = { project, namespace, actor: john, users: new Map([[john.id, john]]) };
    const event = { kind: 'push', ref: 'refs/heads/master', before: '0'.repeat(40), after: 'a'.repeat(40), commits: [], totalCommitsCount: 0 } as unknown as PushHookEvent;
    // Act
    const payload = pushHookPayload(ctx, event);
    // Assess
    expect(payload).toMatchObject({ user_id: 4, user_name: 'John Smith', user_username: 'jsmith', user_email: '[REDACTED]', user_avatar: URL });
    expect(pushHookPayload({ ...ctx, actor: plain }, event).user_avatar).toBeNull();
  });
});

describe('a personal namespace’s avatar_url', () => {
  const created = { id: 9, username: 'jsmith', ownerId: 4, createdAt: '2026-01-05T08:30:00.000Z' };

  it('is its owner’s avatar (the copy on the namespace item), null without one', () => {
    // Act
    const withAvatar = presentNamespace(personalNamespace({ ...created, avatar: AVATAR }));
    const without = presentNamespace(personalNamespace(created));
    // Assess
    expect(withAvatar).toEqual({ id: 9, name: 'jsmith', path: 'jsmith', kind: 'user', full_path: 'jsmith', parent_id: null, avatar_url: URL });
    expect(without.avatar_url).toBeNull();
  });

  it('follows its owner in one update: a new username, a new avatar, a removed one, or nothing', () => {
    // Act
    const renamed = personalNamespaceUpdate(9, { username: 'john' });
    const newAvatar = personalNamespaceUpdate(9, { avatar: AVATAR });
    const removed = personalNamespaceUpdate(9, { avatar: null });
    const both = personalNamespaceUpdate(9, { username: 'john', avatar: null });
    // Assess
    expect(renamed && renamed.Update.UpdateExpression).toBe('SET #name = :path, #path = :path, fullPath = :path');
    expect(newAvatar && newAvatar.Update).toMatchObject({ UpdateExpression: 'SET avatar = :avatar', ExpressionAttributeValues: { ':avatar': AVATAR } });
    expect(newAvatar && newAvatar.Update.ExpressionAttributeNames).toBeUndefined();
    expect(removed && removed.Update).toMatchObject({ UpdateExpression: 'REMOVE avatar' });
    expect(removed && removed.Update.ExpressionAttributeValues).toBeUndefined();
    expect(both && both.Update.UpdateExpression).toBe('SET #name = :path, #path = :path, fullPath = :path REMOVE avatar');
    expect(personalNamespaceUpdate(9, {})).toBe(false);
  });
});
