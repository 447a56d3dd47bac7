/**
 * GPG keys made by the real GnuPG (`gpg`), each in a keyring of its own (`GNUPGHOME` in a scratch
 * directory), and commits signed with them by the real `git`: what users add to GitLab and push.
 * Keys are ed25519 without a passphrase; `gpg-agent`, which gpg starts for signing, is stopped by
 * {@link stopGpgAgents} (call it in `afterAll`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gitOk, scratch } from './git';

const run = promisify(execFile);
const homes: string[] = [];

export interface GpgIdentity {
  /** The keyring's directory (`GNUPGHOME`). */
  home: string;
  /** The primary key's fingerprint, upper-case hex. */
  fingerprint: string;
  /** The armoured public key, as `gpg --armor --export` prints it. */
  publicKey: string;
}

const gpg = async (home: string, args: string[]) => (await run('gpg', ['--batch', '--quiet', '--passphrase', '', ...args], { env: { ...process.env, GNUPGHOME: home } })).stdout;

/** A new key pair with user ids `uids` (`Name <email>`, the first the primary), and a signing subkey when `subkey`. */
export async function gpgKey(uids: string[], options: { subkey?: boolean } = {}): Promise<GpgIdentity> {
  const home = scratch('gpg-');
  homes.push(home);
  await gpg(home, ['--quick-gen-key', uids[0], 'ed25519', 'sign', 'never']);
  const fingerprint = (await gpg(home, ['--list-keys', '--with-colons'])).split('\n').find((line) => line.startsWith('fpr:'))!.split(':')[9];
  for (const uid of uids.slice(1)) await gpg(home, ['--quick-add-uid', fingerprint, uid]);
  if (options.subkey) await gpg(home, ['--quick-add-key', fingerprint, 'ed25519', 'sign', 'never']);
  return { home, fingerprint, publicKey: await gpg(home, ['--armor', '--export', fingerprint]) };
}

/** Commits in `directory` as `email`, signed with `key` by `git commit -S`; answers the commit id. */
export async function gpgSignedCommit(directory: string, key: GpgIdentity, message: string, email: string): Promise<string> {
  await gitOk(['-c', `user.signingkey=${key.fingerprint}`, 'commit', '-q', '--allow-empty', '-S', '-m', message], {
    cwd: directory,
    env: { GNUPGHOME: key.home, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_EMAIL: email },
  });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: directory })).trim();
}

/** Stops the agents the keys' signing started. */
export async function stopGpgAgents(): Promise<void> {
  await Promise.all(homes.splice(0).map((home) => run('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: home } }).catch(() => undefined)));
}
