/**
 * First-run bootstrap: the admin user `root` and an API token for it. Idempotent — run on every
 * local start and on every deployment (CloudFormation custom resource).
 *
 * An entry module of the feature (for `functions/bootstrap/handler.ts` and the local runtime,
 * which import it by path), not exported by index.ts; it uses only the feature's own commands and
 * store, none of the modules that reach up into projects or members.
 */
import { createAccessToken } from './commands/credentials';
import { createUser, updateUser } from './commands/users';
import { findTokenBySecret } from './store/tokens';
import { findUserByUsername, getUser, type User } from './store/users';

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
  const result = await createAccessToken(root, {
    name: 'bootstrap',
    scopes: ['api', 'sudo'],
    impersonation: false,
    expiresAt: null,
    secret,
  });
  return result.secret;
}
