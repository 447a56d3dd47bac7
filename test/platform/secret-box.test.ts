import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureKeyFile, openSecret, resetSecretBox, SecretBoxConfigError, SecretBoxOpenError, sealSecret } from '../../shared/platform/crypto/secret-box';
import { setEnvironment } from '../support/environment';

const secretsMock = mockClient(SecretsManagerClient);
const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:SecretBoxKey-abc';
const saved = { key: process.env.SECRET_BOX_KEY, arn: process.env.SECRET_BOX_KEY_SECRET_ARN };

/** Internal: sets or removes an environment variable. */
const setEnv = (name: string, value: string | undefined) => setEnvironment({ [name]: value });

beforeEach(() => {
  setEnv('SECRET_BOX_KEY', 'unit-test-key-material');
  setEnv('SECRET_BOX_KEY_SECRET_ARN', undefined);
  secretsMock.reset();
  resetSecretBox();
});

afterEach(() => {
  setEnv('SECRET_BOX_KEY', saved.key);
  setEnv('SECRET_BOX_KEY_SECRET_ARN', saved.arn);
  resetSecretBox();
});

afterAll(() => secretsMock.restore());

/** Internal: the sealed value with one byte of its `index`-th part (1 iv, 2 tag, 3 ciphertext) flipped. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[0] ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join(':');
}

describe('sealSecret / openSecret', () => {
  it('round-trips a secret, unicode included', async () => {
    // Act
    const sealed = await sealSecret('hook-tökén ✓');
    // Assess
    expect(await openSecret(sealed)).toBe('hook-tökén ✓');
  });

  it('round-trips the empty string', async () => {
    expect(await openSecret(await sealSecret(''))).toBe('');
  });

  it('produces v1:<iv>:<tag>:<ciphertext>, base64url, with a 12-byte IV and a 16-byte tag, hiding the plaintext', async () => {
    // Act
    const sealed = await sealSecret('plain-secret');
    // Assess
    const [version, iv, tag, ciphertext] = sealed.split(':');
    expect(version).toBe('v1');
    for (const part of [iv, tag, ciphertext]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain('plain-secret');
    expect(sealed).not.toContain(Buffer.from('plain-secret').toString('base64url'));
  });

  it('seals the same plaintext differently every time', async () => {
    // Act
    const [a, b] = [await sealSecret('same'), await sealSecret('same')];
    // Assess
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
    expect([await openSecret(a), await openSecret(b)]).toEqual(['same', 'same']);
  });

  it.each([
    ['the IV', 1],
    ['the tag', 2],
    ['the ciphertext', 3],
  ])('refuses a value whose %s was altered', async (_part, index) => {
    // Prepare
    const sealed = await sealSecret('do not touch');
    // Act / Assess
    await expect(openSecret(tamper(sealed, index))).rejects.toThrow(SecretBoxOpenError);
  });

  it('refuses a value sealed under another key', async () => {
    // Prepare
    const sealed = await sealSecret('for key A');
    setEnv('SECRET_BOX_KEY', 'another-key-material');
    // Act / Assess
    await expect(openSecret(sealed)).rejects.toThrow(/wrong key or altered data/);
  });

  it.each(['', 'plain', 'v2:a:b:c', 'v1:a:b', 'v1:AAAA:AAAA:AAAA', 'v1:::'])('refuses the malformed value %j', async (value) => {
    await expect(openSecret(value)).rejects.toThrow(SecretBoxOpenError);
  });

  it('uses the SHA-256 of SECRET_BOX_KEY whatever its form, so any string is usable key material', async () => {
    // Prepare
    setEnv('SECRET_BOX_KEY', 'short');
    // Act / Assess
    expect(await openSecret(await sealSecret('x'))).toBe('x');
  });
});

describe('secret box key from Secrets Manager', () => {
  beforeEach(() => {
    setEnv('SECRET_BOX_KEY', undefined);
    setEnv('SECRET_BOX_KEY_SECRET_ARN', ARN);
  });

  it('fetches the key material once per container and caches it', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'A'.repeat(44) });
    // Act
    const sealed = await sealSecret('one');
    const opened = await openSecret(sealed);
    await sealSecret('two');
    // Assess
    expect(opened).toBe('one');
    expect(secretsMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('derives the same key from the secret as from SECRET_BOX_KEY with the same material', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'shared-material' });
    const sealed = await sealSecret('portable');
    // Act
    setEnv('SECRET_BOX_KEY', 'shared-material');
    // Assess
    expect(await openSecret(sealed)).toBe('portable');
  });

  it('reports a failed fetch as a configuration error, and tries again on the next call', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand).rejectsOnce(new Error('AccessDenied')).resolves({ SecretString: 'later' });
    // Act / Assess
    await expect(sealSecret('x')).rejects.toThrow(SecretBoxConfigError);
    await expect(sealSecret('x')).resolves.toMatch(/^v1:/);
    expect(secretsMock.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret without a SecretString', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    // Act / Assess
    await expect(sealSecret('x')).rejects.toThrow(/has no SecretString/);
  });
});

describe('secret box without configuration', () => {
  it('fails to seal and to open with a clear configuration error', async () => {
    // Prepare
    const sealed = await sealSecret('made before');
    setEnv('SECRET_BOX_KEY', undefined);
    setEnv('SECRET_BOX_KEY_SECRET_ARN', undefined);
    // Act / Assess
    await expect(sealSecret('x')).rejects.toThrow(SecretBoxConfigError);
    await expect(sealSecret('x')).rejects.toThrow('secret box: no key configured; set SECRET_BOX_KEY or SECRET_BOX_KEY_SECRET_ARN');
    await expect(openSecret(sealed)).rejects.toThrow(SecretBoxConfigError);
  });
});

describe('ensureKeyFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'secret-box-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates 32 random bytes (base64) readable only by the owner, in a directory it creates', async () => {
    // Prepare
    const path = join(dir, 'nested', 'secret-box.key');
    // Act
    const material = await ensureKeyFile(path);
    // Assess
    expect(Buffer.from(material, 'base64')).toHaveLength(32);
    expect((await readFile(path, 'utf8')).trim()).toBe(material);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('returns the same material on later calls, so restarts open old secrets', async () => {
    // Prepare
    const path = join(dir, 'secret-box.key');
    const first = await ensureKeyFile(path);
    setEnv('SECRET_BOX_KEY', first);
    const sealed = await sealSecret('survives restarts');
    // Act
    const again = await ensureKeyFile(path);
    setEnv('SECRET_BOX_KEY', again);
    // Assess
    expect(again).toBe(first);
    expect(await openSecret(sealed)).toBe('survives restarts');
  });

  it('agrees on one key when started concurrently, leaving no temporary file', async () => {
    // Prepare
    const path = join(dir, 'secret-box.key');
    // Act
    const materials = await Promise.all(Array.from({ length: 8 }, () => ensureKeyFile(path)));
    // Assess
    expect(new Set(materials).size).toBe(1);
    expect(await readdir(dir)).toEqual(['secret-box.key']);
  });

  it('refuses an empty key file', async () => {
    // Prepare
    const path = join(dir, 'secret-box.key');
    await writeFile(path, '\n');
    // Act / Assess
    await expect(ensureKeyFile(path)).rejects.toThrow(/is empty/);
  });
});
