/**
 * A commit's signature as GitLab verifies it (`Gitlab::Ssh::Signature`, `Gitlab::Gpg::Commit`,
 * `Gitlab::X509::Commit`), computed on each read from the commit object (GitLab caches the result
 * in `commit_signatures`; here nothing is stored, so a key added or removed later changes the answer
 * at once).
 *
 * - SSH: the SSHSIG checked against the commit without its signature; then the key looked up by its
 *   SHA256 fingerprint among users' SSH keys (every key here is GitLab's `auth_and_signing`):
 *   `unverified` (bad signature, other namespace, unreadable), `unknown_key` (no user has the key),
 *   `other_user` (the committer's email is not the key owner's), `unverified` (the owner's, but not
 *   a verified one: a primary email never confirmed), `verified`.
 * - PGP: there are no GPG keys here, so every signer is unknown: `unknown_key` with the issuer read
 *   from the signature (the signature itself is not checked; GitLab does not either without the key).
 * - X509: the certificate is not read: `unverified`, no certificate.
 */
import { findSshKeyByFingerprint, getUser, userIdByEmail, type SshKey } from '../../users';
import { openPgpIssuer, parseSshSignature, signatureKind, splitSignedCommit, sshFingerprint, verifySshSignature } from '../git/objects/signatures';
import type { CommitObject, ObjectReader } from './objects';

export type SshVerificationStatus = 'verified' | 'unverified' | 'unknown_key' | 'other_user';

export type CommitSignature =
  | { type: 'SSH'; status: SshVerificationStatus; key: SshKey | undefined }
  | { type: 'PGP'; status: 'unknown_key'; issuer: string | null }
  | { type: 'X509'; status: 'unverified' };

/** A commit's signature, or `undefined` when it carries none GitLab recognizes. */
export async function commitSignature(reader: ObjectReader, commit: CommitObject): Promise<CommitSignature | undefined> {
  const object = await reader.read(commit.id);
  const signed = object?.type === 'commit' ? splitSignedCommit(object.body) : undefined;
  if (!signed) return undefined;
  switch (signatureKind(signed.signature)) {
    case 'SSH':
      return sshSignature(signed.signature, signed.payload, commit.committer.email);
    case 'PGP':
      return { type: 'PGP', status: 'unknown_key', issuer: openPgpIssuer(signed.signature) ?? null };
    case 'X509':
      return { type: 'X509', status: 'unverified' };
    default:
      return undefined;
  }
}

async function sshSignature(text: string, payload: Buffer, committerEmail: string): Promise<CommitSignature> {
  const signature = parseSshSignature(text);
  const found = signature && (await findSshKeyByFingerprint({ sha256: sshFingerprint(signature.publicKey) }));
  const owner = found && (await getUser(found.userId));
  const key = owner ? found : undefined;
  const status = async (): Promise<SshVerificationStatus> => {
    if (!signature || committerEmail === '' || !verifySshSignature(signature, payload)) return 'unverified';
    if (!key || !owner) return 'unknown_key';
    if ((await userIdByEmail(committerEmail)) !== owner.id) return 'other_user';
    // The owner's email: the primary one counts once confirmed; secondary emails have no confirmation here.
    const primary = owner.email.toLowerCase() === committerEmail.toLowerCase();
    return primary && owner.confirmedAt === null ? 'unverified' : 'verified';
  };
  return { type: 'SSH', status: await status(), key };
}
