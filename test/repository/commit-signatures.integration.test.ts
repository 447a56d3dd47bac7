/**
 * `GET /projects/:id/repository/commits/:sha/signature`: commits signed by the real `git` CLI with
 * SSH keys (`gpg.format=ssh`) are verified against the users' SSH keys as GitLab does; PGP and X509
 * signatures are told apart by their armour; an unsigned commit is `404 Signature Not Found`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository, scratch } from '../support/git';
import { gpgKey, gpgSignedCommit, stopGpgAgents } from '../support/gpg';
import { GPG_SIGNATURE } from './git/pgp-signature';

let project: OwnedProject;
let unconfirmed: TestUser;
let registeredKey: Record<string, unknown>;
const shas: Record<string, string> = {};
/** The GPG keys registered: the owner's (with a signing subkey) and one whose email is nobody's. */
const gpg: Record<'owner' | 'unverified', { id: number; primaryKeyid: string }> = {} as never;
let unregisteredFingerprint: string;
let secondaryEmail: string;

const signature = (sha: string, anonymous = false) =>
  api(`/projects/${project.id}/repository/commits/${sha}/signature`, anonymous ? {} : { token: project.owner.token });

/** A new ed25519 key pair made by ssh-keygen; answers the private key's file. */
function newKey(directory: string, name: string): string {
  const file = join(directory, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return file;
}

async function registerKey(token: string, file: string) {
  const response = await api('/user/keys', { token, body: { title: 'signing', key: readFileSync(`${file}.pub`, 'utf8') } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, unknown>;
}

/** Commits (signed with `key` when given) as `email`; answers the commit id. */
async function commit(directory: string, message: string, email: string, key?: string): Promise<string> {
  const signing = key ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${key}`] : [];
  await gitOk([...signing, 'commit', '-q', '--allow-empty', ...(key ? ['-S'] : []), '-m', message], {
    cwd: directory,
    env: { GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_EMAIL: email },
  });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: directory })).trim();
}

/** Writes a commit object by hand on top of HEAD and moves HEAD to it. */
async function writeCommit(directory: string, body: string): Promise<string> {
  const path = join(scratch('object-'), 'commit');
  writeFileSync(path, body);
  const sha = (await gitOk(['hash-object', '-t', 'commit', '-w', path], { cwd: directory })).trim();
  await gitOk(['update-ref', 'HEAD', sha], { cwd: directory });
  return sha;
}

const withHeader = (head: string, name: string, value: string) => `${head}${name} ${value.split('\n').join('\n ')}\n`;

beforeAll(async () => {
  [project, unconfirmed] = await Promise.all([ownedProject('private'), createUser({ confirm: false })]);
  const keys = scratch('keys-');
  const [registered, unregistered, unconfirmedKey] = ['registered', 'unregistered', 'unconfirmed'].map((name) => newKey(keys, name));
  [registeredKey] = await Promise.all([registerKey(project.owner.token, registered), registerKey(unconfirmed.token, unconfirmedKey)]);

  const email = project.owner.email;
  const directory = await localRepository({ 'README.md': '# signed\n' }, 'unsigned');
  shas.unsigned = (await gitOk(['rev-parse', 'HEAD'], { cwd: directory })).trim();
  shas.verified = await commit(directory, 'signed by its committer', email, registered);
  shas.unknownKey = await commit(directory, 'signed with a key nobody has', email, unregistered);
  shas.otherUser = await commit(directory, 'signed by someone else', 'stranger@example.com', registered);
  shas.unconfirmed = await commit(directory, 'signed with an unconfirmed email', unconfirmed.email, unconfirmedKey);

  // The verified commit with its message changed: the signature no longer matches.
  const original = await gitOk(['cat-file', 'commit', shas.verified], { cwd: directory });
  const head = `tree ${original.split('\n')[0].slice(5)}\nparent ${shas.unconfirmed}\n`;
  shas.tampered = await writeCommit(directory, original.replace(/^tree .*\nparent .*\n/, head).replace('signed by its committer', 'signed by nobody'));
  const people = `author A <${email}> 1700000000 +0000\ncommitter A <${email}> 1700000000 +0000\n`;
  const tree = original.split('\n')[0].slice(5);
  shas.pgp = await writeCommit(directory, `${withHeader(`tree ${tree}\nparent ${shas.tampered}\n${people}`, 'gpgsig', GPG_SIGNATURE)}\npgp\n`);
  const x509 = '-----BEGIN SIGNED MESSAGE-----\nMIAGCSqGSIb3DQEHAqCAMIACAQExDTALBglghkgBZQMEAgEwgAYJKoZIhvcNAQcB\n-----END SIGNED MESSAGE-----';
  shas.x509 = await writeCommit(directory, `${withHeader(`tree ${tree}\nparent ${shas.pgp}\n${people}`, 'gpgsig', x509)}\nx509\n`);

  await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:refs/heads/main'], { cwd: directory });

  // GPG (on a branch of their own): the owner's key (their email, a signing subkey), a key of theirs with nobody's email, a key nobody registered.
  secondaryEmail = `second-${project.owner.username}@example.com`;
  const [ownerKey, unverifiedKey, unregisteredKey] = await Promise.all([
    gpgKey([`Owner Name <${email}>`], { subkey: true }),
    gpgKey(['Somebody <somebody-else@example.com>']),
    gpgKey(['Stranger <stranger@example.com>']),
    api('/user/emails', { token: project.owner.token, body: { email: secondaryEmail } }),
  ]);
  unregisteredFingerprint = unregisteredKey.fingerprint;
  for (const [name, key] of [['owner', ownerKey], ['unverified', unverifiedKey]] as const) {
    const added = await api('/user/gpg_keys', { token: project.owner.token, body: { key: key.publicKey } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    gpg[name] = { id: added.body.id, primaryKeyid: key.fingerprint.slice(-16) };
  }
  shas.gpgVerified = await gpgSignedCommit(directory, ownerKey, 'gpg: signed by its committer', email);
  shas.gpgSecondary = await gpgSignedCommit(directory, ownerKey, 'gpg: committed with another email of the signer', secondaryEmail);
  shas.gpgOtherUser = await gpgSignedCommit(directory, ownerKey, 'gpg: committed by someone else', 'stranger@example.com');
  shas.gpgUnverifiedKey = await gpgSignedCommit(directory, unverifiedKey, 'gpg: a key without the owner’s email', email);
  shas.gpgUnknownKey = await gpgSignedCommit(directory, unregisteredKey, 'gpg: a key nobody registered', email);
  const gpgOriginal = await gitOk(['cat-file', 'commit', shas.gpgVerified], { cwd: directory });
  const tampered = gpgOriginal.replace(/^parent .*$/m, `parent ${shas.gpgUnknownKey}`).replace('gpg: signed by its committer', 'gpg: changed after signing');
  shas.gpgTampered = await writeCommit(directory, tampered);
  await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:refs/heads/gpg'], { cwd: directory });
});
afterAll(stopGpgAgents);

describe('GET /projects/:id/repository/commits/:sha/signature', () => {
  it('verifies SSH signatures against the users’ keys and emails, as GitLab', async () => {
    const [verified, unknownKey, otherUser, unconfirmedEmail, tampered] = await Promise.all(
      [shas.verified, shas.unknownKey, shas.otherUser, shas.unconfirmed, shas.tampered].map((sha) => signature(sha)),
    );
    const key = { ...registeredKey, expires_at: null, usage_type: 'auth_and_signing' };
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toEqual({ signature_type: 'SSH', verification_status: 'verified', key, commit_source: 'gitaly' });
    expect(unknownKey.body).toEqual({ signature_type: 'SSH', verification_status: 'unknown_key', key: null, commit_source: 'gitaly' });
    expect(otherUser.body).toEqual({ signature_type: 'SSH', verification_status: 'other_user', key, commit_source: 'gitaly' });
    expect(unconfirmedEmail.body).toMatchObject({ signature_type: 'SSH', verification_status: 'unverified', key: expect.objectContaining({ title: 'signing' }) });
    expect(tampered.body).toEqual({ signature_type: 'SSH', verification_status: 'unverified', key, commit_source: 'gitaly' });
  });

  it('verifies GPG signatures made by git and gpg against the users’ GPG keys and emails, as GitLab', async () => {
    const names = ['gpgVerified', 'gpgSecondary', 'gpgOtherUser', 'gpgUnverifiedKey', 'gpgTampered', 'gpgUnknownKey'];
    const [verified, secondary, otherUser, unverifiedKey, tampered, unknownKey] = await Promise.all(names.map((name) => signature(shas[name])));
    const ownerKey = {
      signature_type: 'PGP',
      gpg_key_id: gpg.owner.id,
      gpg_key_primary_keyid: gpg.owner.primaryKeyid,
      gpg_key_user_name: 'Owner Name',
      gpg_key_user_email: project.owner.email,
      // gpg signs with the newest signing subkey: the key is found by the subkey's id.
      gpg_key_subkey_id: expect.any(Number),
      commit_source: 'gitaly',
    };
    expect(verified.body).toEqual({ ...ownerKey, verification_status: 'verified' });
    expect(secondary.body).toEqual({ ...ownerKey, verification_status: 'same_user_different_email' });
    expect(otherUser.body).toEqual({ ...ownerKey, verification_status: 'other_user' });
    expect(tampered.body).toEqual({ ...ownerKey, verification_status: 'unverified' });
    expect(unverifiedKey.body).toMatchObject({
      verification_status: 'unverified_key',
      gpg_key_id: gpg.unverified.id,
      gpg_key_primary_keyid: gpg.unverified.primaryKeyid,
      gpg_key_user_email: 'somebody-else@example.com',
      gpg_key_subkey_id: null,
    });
    expect(unknownKey.body).toMatchObject({ verification_status: 'unknown_key', gpg_key_id: null, gpg_key_primary_keyid: unregisteredFingerprint, gpg_key_user_email: null });

    // A revoked key is a key nobody has: its commits are `unknown_key`.
    expect((await api(`/user/gpg_keys/${gpg.owner.id}/revoke`, { method: 'POST', token: project.owner.token })).status).toBe(202);
    expect((await signature(shas.gpgVerified)).body).toMatchObject({ verification_status: 'unknown_key', gpg_key_id: null, gpg_key_subkey_id: null });
  });

  it('answers PGP and X509 signatures by their kind, and 404 without a signature or commit', async () => {
    const [pgp, x509, unsigned, missing, anonymous] = await Promise.all([
      signature(shas.pgp),
      signature('main'),
      signature(shas.unsigned),
      signature('0'.repeat(40)),
      signature(shas.verified, true),
    ]);
    expect(pgp.body).toEqual({
      signature_type: 'PGP',
      verification_status: 'unknown_key',
      gpg_key_id: null,
      gpg_key_primary_keyid: 'B48B9B31E383A6B0C925721574BB0A8E550A02B6',
      gpg_key_user_name: null,
      gpg_key_user_email: null,
      gpg_key_subkey_id: null,
      commit_source: 'gitaly',
    });
    expect(x509.body).toEqual({ signature_type: 'X509', verification_status: 'unverified', x509_certificate: null, commit_source: 'gitaly' });
    expect([unsigned.status, unsigned.body]).toEqual([404, { message: '404 Signature Not Found' }]);
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect([anonymous.status, anonymous.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
