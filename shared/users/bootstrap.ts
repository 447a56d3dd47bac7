/**
 * First-run bootstrap: the admin user `root` and an API token for it. Idempotent — run on every
 * local start and on every deployment (CloudFormation custom resource).
 */
import { findTokenBySecret, createToken } from './store/tokens';
import { findUserByUsername, getUser, type User } from './store/users';
import { createUser, updateUser } from './users';

export const ROOT_USERNAME = 'root';

/**
 * Ensures `root` exists (an admin) and, when `token` is given, that this secret authenticates as
 * root (added if unknown, so a fixed ROOT_TOKEN or a rotated deployment secret always works).
 * Without `token`, a random one is created only together with a new root and returned once.
 */
export async function ensureRootUser(options: { token?: string; email?: string }): Promise<{ created: boolean; token?: string }> {
  let root: User | undefined = await findUserByUsername(ROOT_USERNAME);
  let created = false;
  if (!root) {
    const user = await createUser({
      username: ROOT_USERNAME,
      name: 'Administrator',
      email: options.email ?? 'admin@example.com',
      reset_password: true,
    });
    root = await updateUser(user, { admin: true });
    created = true;
  }
  if (options.token) {
    const existing = await findTokenBySecret(options.token);
    if (existing && existing.user?.id !== root.id) throw new Error('ROOT_TOKEN is already the token of another user');
    if (!existing) await createRootToken(root, options.token);
    return { created };
  }
  if (!created) return { created };
  const secret = await createRootToken((await getUser(root.id)) ?? root);
  return { created, token: secret };
}

async function createRootToken(root: User, secret?: string): Promise<string> {
  const result = await createToken(root.id, {
    name: 'bootstrap',
    scopes: ['api', 'sudo'],
    impersonation: false,
    expiresAt: null,
    secret,
  });
  return result.secret;
}
