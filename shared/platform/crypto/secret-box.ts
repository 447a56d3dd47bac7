/**
 * Encryption of secrets the service must be able to read back (a hook's `token` is sent to the
 * receiver on every delivery, so a digest will not do). AES-256-GCM with a random 12-byte IV per
 * seal; the sealed form is one string, `v1:<iv>:<tag>:<ciphertext>` (each part base64url), so
 * it fits in one item attribute and the version prefix leaves room for a later format or key.
 *
 * The AES key is always the SHA-256 of a key-material string, whatever its source:
 * 1. `SECRET_BOX_KEY`: the material itself (the local runtime writes 32 random bytes, base64);
 * 2. otherwise `SECRET_BOX_KEY_SECRET_ARN`: the `SecretString` of that Secrets Manager secret
 *    (the stack generates it), read once per container and cached;
 * 3. otherwise sealing and opening fail with {@link SecretBoxConfigError}.
 * Deriving in every case means the material needs no particular encoding or length (Secrets
 * Manager generates characters, not bytes), and changing the source keeps the same rule.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { config } from '../config';
import { traced } from '../observability';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Neither `SECRET_BOX_KEY` nor `SECRET_BOX_KEY_SECRET_ARN` is usable: a deployment mistake, never a client's. */
export class SecretBoxConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxConfigError';
  }
}

/** A sealed value that is malformed, was tampered with, or was sealed under another key. */
export class SecretBoxOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxOpenError';
  }
}

const deriveKey = (material: string): Buffer => createHash('sha256').update(material, 'utf8').digest();

/** Internal: the key from Secrets Manager, fetched once per container (a failed fetch is retried next time). */
let secretKey: Promise<Buffer> | undefined;

async function fetchSecretKey(secretArn: string): Promise<Buffer> {
  let material: string | undefined;
  try {
    // Imported once per container, when a webhook secret is first sealed or opened.
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const result = await traced(new SecretsManagerClient({})).send(new GetSecretValueCommand({ SecretId: secretArn }));
    material = result.SecretString;
  } catch (error) {
    throw new SecretBoxConfigError(`secret box: cannot read the key secret SECRET_BOX_KEY_SECRET_ARN (${secretArn})`, { cause: error });
  }
  if (!material) throw new SecretBoxConfigError(`secret box: the key secret ${secretArn} has no SecretString`);
  return deriveKey(material);
}

/** Internal: the AES key for the current configuration. */
async function currentKey(): Promise<Buffer> {
  const material = config().secretBoxKey;
  if (material) return deriveKey(material);
  const secretArn = config().secretBoxKeySecretArn;
  if (secretArn) {
    secretKey ??= fetchSecretKey(secretArn).catch((error: unknown) => {
      secretKey = undefined;
      throw error;
    });
    return secretKey;
  }
  throw new SecretBoxConfigError('secret box: no key configured; set SECRET_BOX_KEY or SECRET_BOX_KEY_SECRET_ARN');
}

/**
 * Encrypts `plaintext`; every call uses a fresh IV, so sealing one value twice gives two
 * different strings.
 *
 * @example
 * const sealed = await sealSecret('hook-token'); // 'v1:…:…:…'
 * await openSecret(sealed); // 'hook-token'
 */
export async function sealSecret(plaintext: string): Promise<string> {
  const key = await currentKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
}

/**
 * Decrypts a value made by {@link sealSecret}. Throws {@link SecretBoxOpenError} when it is
 * malformed, altered, or sealed under another key (GCM authenticates it), never returning garbage.
 */
export async function openSecret(sealed: string): Promise<string> {
  const parts = sealed.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxOpenError('secret box: not a sealed value of a known version');
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxOpenError('secret box: malformed sealed value');
  const key = await currentKey();
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new SecretBoxOpenError('secret box: cannot open the sealed value (wrong key or altered data)', { cause: error });
  }
}

/**
 * For the local runtime: the key material kept in `path`, created on first use (32 random bytes,
 * base64, mode 0600) so that a restarted runtime still opens the secrets it sealed before.
 * Concurrent first calls agree on one key.
 */
export async function ensureKeyFile(path: string): Promise<string> {
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined) return keyMaterialOf(existing, path);
  await mkdir(dirname(path), { recursive: true });
  // Written whole under a temporary name, then linked into place: `link` fails if the file
  // exists, so a concurrent first start never reads a half-written key, and the first one wins.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  return keyMaterialOf(await readFile(path, 'utf8'), path);
}

function keyMaterialOf(content: string, path: string): string {
  const material = content.trim();
  if (!material) throw new SecretBoxConfigError(`secret box: the key file ${path} is empty`);
  return material;
}

/** Test hook: forget the key fetched from Secrets Manager. */
export function resetSecretBox(): void {
  secretKey = undefined;
}
