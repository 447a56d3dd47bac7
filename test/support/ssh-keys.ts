/**
 * Fresh, real OpenSSH public keys for integration tests: every call makes a new key pair, so
 * fingerprints never collide between tests or test files sharing one service.
 *
 * ssh-keygen is used when installed (the lines are then exactly what users paste from
 * `~/.ssh/id_*.pub`); otherwise node:crypto generates the pair and sshpk writes the OpenSSH line.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sshpk from 'sshpk';
import { unique } from './fixtures';

export type SshKeyType = 'rsa' | 'ed25519' | 'ecdsa';

/** The OpenSSH algorithm name each generated type has (the first word of the line). */
export const SSH_KEY_ALGORITHMS: Record<SshKeyType, string> = {
  rsa: 'ssh-rsa',
  ed25519: 'ssh-ed25519',
  ecdsa: 'ecdsa-sha2-nistp256',
};

const KEYGEN_ARGS: Record<SshKeyType, string[]> = {
  rsa: ['-t', 'rsa', '-b', '2048'],
  ed25519: ['-t', 'ed25519'],
  ecdsa: ['-t', 'ecdsa', '-b', '256'],
};

const hasSshKeygen = spawnSync('ssh-keygen', ['-?']).error === undefined;

function withSshKeygen(type: SshKeyType, comment: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'it-ssh-key-'));
  try {
    const file = join(dir, 'id');
    const result = spawnSync('ssh-keygen', ['-q', ...KEYGEN_ARGS[type], '-N', '', '-C', comment, '-f', file]);
    if (result.status !== 0) return undefined;
    return readFileSync(`${file}.pub`, 'utf8').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function withNodeCrypto(type: SshKeyType, comment: string): string {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : type === 'ed25519'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  return `${sshpk.parseKey(pem, 'pem').toString('ssh').split(' ').slice(0, 2).join(' ')} ${comment}`;
}

/**
 * A new public key line `<algorithm> <base64> <comment>` (no trailing newline), as the API stores
 * and returns it.
 *
 * @example
 * const key = generateSshPublicKey('ed25519');
 * await api('/user/keys', { token, body: { title: 'laptop', key } });
 */
export function generateSshPublicKey(type: SshKeyType = 'ed25519', comment: string = `${unique('it')}@test`): string {
  return (hasSshKeygen ? withSshKeygen(type, comment) : undefined) ?? withNodeCrypto(type, comment);
}
