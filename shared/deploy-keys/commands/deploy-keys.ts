/**
 * Adding, editing, enabling and removing deploy keys (GitLab's `POST /projects/:id/deploy_keys`,
 * `DeployKeys::CreateService`, `Projects::EnableDeployKeyService`, `DeployKeysProject#destroy`):
 * the key parsed with the users feature's SSH key parser (loaded on first use), GitLab's
 * validation answers (`{"message":{"deploy_key.key":["is invalid"],…}}` through a project,
 * unprefixed for the instance's keys), and the writes of the store, retried when a concurrent
 * request changed what they were conditioned on.
 */
import { NotFoundError, RecordNotFoundError, ValidationError } from '../../platform/http/errors';
import { isAdmin, type ProjectSubject } from '../../auth';
import { parseSshPublicKeyLazily, type ParsedSshKey, type User } from '../../users';
import { isAccessibleDeployKey, type LinkedKey } from '../queries/deploy-keys';
import {
  fingerprintHolder,
  getDeployKey,
  getProjectLink,
  insertDeployKey,
  linkDeployKey,
  linksOfProject,
  newDeployKeyId,
  unlinkDeployKey,
  updateDeployKeysProject,
  type DeployKey,
  type DeployKeyLink,
} from '../store/deploy-keys';

export interface NewDeployKey {
  title: string;
  key: string;
  expiresAt?: string;
}

/** GitLab's `Key` validation of a title (presence is the parameter's: blank is `title is missing`). */
const TITLE_TOO_LONG = 'is too long (maximum is 255 characters)';

/** How often a write whose condition a concurrent request broke is tried again, reading afresh. */
const ATTEMPTS = 5;

/**
 * The model's validation errors of a new key, named as GitLab names them (`prefix`: `deploy_key.`
 * through a project's link), in its order: title, key, fingerprint; `taken` when the fingerprint
 * is another key's.
 */
function keyErrors(input: NewDeployKey, parsed: ParsedSshKey | undefined, taken: boolean, prefix: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[`${prefix}${field}`] ??= []).push(message);
  if (input.title.length > 255) add('title', TITLE_TOO_LONG);
  if (!parsed) add('key', 'is invalid');
  // GitLab's `Expirable`: a key created already expired.
  if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= Date.now()) add('key', 'has expired');
  if (!parsed) add('fingerprint_sha256', 'cannot be generated');
  else if (taken) add('fingerprint_sha256', 'has already been taken');
  return errors;
}

function newKey(id: number, user: User, input: NewDeployKey, parsed: ParsedSshKey, isPublic: boolean, linkCount: number): DeployKey {
  return {
    id,
    title: input.title,
    key: parsed.normalized,
    fingerprint: parsed.fingerprintMd5,
    fingerprintSha256: parsed.fingerprintSha256,
    public: isPublic,
    userId: user.id,
    createdAt: new Date().toISOString(),
    expiresAt: input.expiresAt ?? null,
    linkCount,
  };
}

/** Links a key to a project (`can_push` as given); undefined when a concurrent change asks for a fresh look. */
async function link(key: DeployKey, projectId: number, canPush: boolean): Promise<LinkedKey | undefined> {
  const created: DeployKeyLink = { keyId: key.id, projectId, canPush, createdAt: new Date().toISOString() };
  const result = await linkDeployKey(created);
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === undefined) return { key: { ...key, linkCount: key.linkCount + 1 }, link: created };
  return undefined;
}

/**
 * `POST /projects/:id/deploy_keys`, as GitLab: the same key (its line, as stored) the project has
 * already is answered as it is; one another project of the caller's (or a public one) uses is
 * linked; otherwise a new key is made with its link. Two requests adding one new key to two
 * projects at once make one key and two links: the one whose fingerprint claim loses looks again
 * and links the winner's key.
 */
export async function addProjectDeployKey(subject: ProjectSubject, user: User, input: NewDeployKey & { canPush: boolean }): Promise<LinkedKey> {
  const projectId = subject.project.id;
  const parsed = await parseSshPublicKeyLazily(input.key.trim());
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const holder = parsed && (await fingerprintHolder(parsed.fingerprintSha256));
    if (typeof holder === 'number') {
      const existing = await getDeployKey(holder);
      if (!existing) continue; // deleted meanwhile (with its claim): look again
      if (existing.key === parsed!.normalized) {
        const current = await getProjectLink(projectId, existing.id);
        if (current) return { key: existing, link: current };
        if (await isAccessibleDeployKey(existing, user)) {
          const linked = await link(existing, projectId, input.canPush);
          if (linked) return linked;
          continue;
        }
      }
    }
    const errors = keyErrors(input, parsed, holder !== undefined, 'deploy_key.');
    if (Object.keys(errors).length > 0 || !parsed) throw new ValidationError(errors);
    const key = newKey(await newDeployKeyId(), user, input, parsed, false, 1);
    const created: DeployKeyLink = { keyId: key.id, projectId, canPush: input.canPush, createdAt: key.createdAt };
    const result = await insertDeployKey(key, created);
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result === undefined) return { key, link: created };
  }
  throw new ValidationError({ 'deploy_key.fingerprint_sha256': ['has already been taken'] });
}

/** `POST /deploy_keys` (GitLab's `DeployKeys::CreateService` with `public: true`): an instance-wide key, in no project yet. */
export async function createPublicDeployKey(user: User, input: NewDeployKey): Promise<DeployKey> {
  const parsed = await parseSshPublicKeyLazily(input.key.trim());
  const taken = parsed !== undefined && (await fingerprintHolder(parsed.fingerprintSha256)) !== undefined;
  const errors = keyErrors(input, parsed, taken, '');
  if (Object.keys(errors).length > 0 || !parsed) throw new ValidationError(errors);
  const key = newKey(await newDeployKeyId(), user, input, parsed, true, 0);
  if ((await insertDeployKey(key)) === 'claim_taken') throw new ValidationError({ fingerprint_sha256: ['has already been taken'] });
  return key;
}

/**
 * `POST /projects/:id/deploy_keys/:key_id/enable` (GitLab's `EnableDeployKeyService`): a key the
 * caller may take (public, or used by one of their projects) is linked read-only, unless the
 * project has it already; any other id is `404 Deploy key Not Found`.
 */
export async function enableDeployKey(subject: ProjectSubject, user: User, keyId: number): Promise<DeployKey> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const key = await getDeployKey(keyId);
    if (!key || !(await isAccessibleDeployKey(key, user))) break;
    if (await getProjectLink(subject.project.id, key.id)) return key;
    const linked = await link(key, subject.project.id, false);
    if (linked) return linked.key;
  }
  throw new NotFoundError('Deploy key');
}

/**
 * `PUT /projects/:id/deploy_keys/:key_id`: the link's `can_push` and the key's title, together.
 * The title of a public key is the admins' to change (GitLab's `update_deploy_key_title`): anyone
 * else's is left as it was. A blank (or `null`) title is GitLab's `can't be blank`.
 */
export async function updateLinkedKey(linked: LinkedKey, user: User, change: { title?: string | null; canPush?: boolean }): Promise<LinkedKey> {
  const title = change.title !== undefined && (isAdmin(user) || !linked.key.public) ? change.title : undefined;
  if (title === null || title?.trim() === '') throw new ValidationError({ 'deploy_key.title': ["can't be blank"] });
  if (title !== undefined && title.length > 255) throw new ValidationError({ 'deploy_key.title': [TITLE_TOO_LONG] });
  const at = new Date().toISOString();
  if ((await updateDeployKeysProject(linked.link, { title, canPush: change.canPush, at })) === 'gone') throw new RecordNotFoundError();
  return {
    key: { ...linked.key, title: title ?? linked.key.title },
    link: { ...linked.link, canPush: change.canPush ?? linked.link.canPush, ...(change.canPush !== undefined ? { updatedAt: at } : {}) },
  };
}

/**
 * Removes a project's link to a key; the key itself goes when it is private and no other project
 * uses it. `gone` when the project had no such key (or no longer has it).
 */
async function unlink(projectId: number, keyId: number): Promise<'gone' | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS * 4; attempt++) {
    const key = await getDeployKey(keyId);
    if (!key) return 'gone';
    const result = await unlinkDeployKey(key, projectId);
    if (result !== 'retry') return result;
  }
  throw new Error(`deploy key ${keyId}: its links kept changing`);
}

/** `DELETE /projects/:id/deploy_keys/:key_id`: `404 Deploy key Not Found` when the project has no such key. */
export async function removeProjectDeployKey(projectId: number, keyId: number): Promise<void> {
  if ((await getProjectLink(projectId, keyId)) === undefined || (await unlink(projectId, keyId)) === 'gone') throw new NotFoundError('Deploy key');
}

/** What goes with a deleted project (a removal step of the projects feature): its links, and the private keys only it used. */
export async function removeProjectDeployKeys(project: { id: number }): Promise<void> {
  for (const link of await linksOfProject(project.id)) await unlink(project.id, link.keyId);
}
