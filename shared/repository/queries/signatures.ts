/**
 * A commit's signature as GitLab verifies it (`Gitlab::Ssh::Signature`, `Gitlab::Gpg::Signature`,
 * `Gitlab::X509::Commit`), computed on each read from the commit object (GitLab caches the result
 * in `commit_signatures`; here nothing is stored, so a key added or removed later changes the answer
 * at once).
 *
 * - SSH: the SSHSIG checked against the commit without its signature; then the key looked up by its
 *   SHA256 fingerprint among users' SSH keys (every key here is GitLab's `auth_and_signing`):
 *   `unverified` (bad signature, other namespace, unreadable), `unknown_key` (no user has the key),
 *   `other_user` (the committer's email is not the key owner's), `unverified` (the owner's, but not
 *   a verified one: a primary email never confirmed), `verified`.
 * - PGP: the key found by the key id the signature names (a primary key's or a subkey's) among
 *   users' GPG keys, in GitLab's order: `multiple_signatures`, `unknown_key` (no such key),
 *   `unverified_key` (none of the key's emails is a verified email of its owner), `unverified` (the
 *   signature does not check), `verified` (the committer's email is one of the key's verified
 *   emails), `same_user_different_email` (it is another email of the key's owner), `other_user`.
 * - X509: the certificate is not read: `unverified`, no certificate.
 *
 * An email is verified when it is the owner's confirmed primary email or one of their secondary
 * emails (secondary emails have no confirmation here).
 */
import { findGpgKeyByKeyid, findSshKeyByFingerprint, getUser, userIdByEmail, type GpgKey, type SshKey, type User } from '../../users';
import { readPgpSignature, verifyPgpSignature } from '../git/objects/pgp';
import { parseSshSignature, signatureKind, splitSignedCommit, sshFingerprint, verifySshSignature } from '../git/objects/signatures';
import type { CommitObject, ObjectReader } from './objects';

export type SshVerificationStatus = 'verified' | 'unverified' | 'unknown_key' | 'other_user';
export type PgpVerificationStatus = 'verified' | 'unverified' | 'unverified_key' | 'unknown_key' | 'other_user' | 'same_user_different_email' | 'multiple_signatures';

export type CommitSignature =
  | { type: 'SSH'; status: SshVerificationStatus; key: SshKey | undefined }
  | {
      type: 'PGP';
      status: PgpVerificationStatus;
      /** The key found, with the subkey that signed (when not the primary key) and the user id shown. */
      key: { key: GpgKey; subkeyId: number | null; userInfo: { name: string; email: string } | undefined } | undefined;
      /** The signature's issuer (fingerprint, else key id), for a key nobody has. */
      issuer: string | null;
    }
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
      return pgpSignature(signed.signature, signed.payload, commit.committer.email);
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
    return ownEmailVerified(owner, committerEmail) ? 'verified' : 'unverified';
  };
  return { type: 'SSH', status: await status(), key };
}

/** Whether an email known to be `owner`'s is verified: the primary one once confirmed; secondary ones have no confirmation here. */
const ownEmailVerified = (owner: User, email: string) => owner.email.toLowerCase() !== email.toLowerCase() || owner.confirmedAt !== null;

/** Whether `email` is a verified email of `owner`: the confirmed primary one, or a secondary one (its claim names the owner). */
async function isVerifiedEmail(owner: User, email: string): Promise<boolean> {
  const primary = owner.email.toLowerCase() === email.toLowerCase();
  return (primary || (await userIdByEmail(email)) === owner.id) && ownEmailVerified(owner, email);
}

async function pgpSignature(text: string, payload: Buffer, committerEmail: string): Promise<CommitSignature> {
  const signature = await readPgpSignature(text);
  const answer = (status: PgpVerificationStatus, key?: Extract<CommitSignature, { type: 'PGP' }>['key']): CommitSignature => ({
    type: 'PGP',
    status,
    key,
    issuer: signature?.issuer ?? null,
  });
  if (!signature) return answer('unknown_key');
  if (signature.count > 1) return answer('multiple_signatures');
  const signer = signature.keyids[0];
  const key = await findGpgKeyByKeyid(signer);
  const owner = key && (await getUser(key.userId));
  if (!key || !owner) return answer('unknown_key');
  const verifiedFlags = await Promise.all(key.userInfos.map((info) => isVerifiedEmail(owner, info.email)));
  const verified = key.userInfos.filter((_, i) => verifiedFlags[i]);
  const found = { key, subkeyId: key.subkeys.find((subkey) => subkey.keyid === signer)?.id ?? null, userInfo: verified[0] ?? key.userInfos[0] };
  if (verified.length === 0) return answer('unverified_key', found);
  if (!(await verifyPgpSignature(signature.signature, payload, key.key))) return answer('unverified', found);
  if (verified.some((info) => info.email === committerEmail.toLowerCase())) return answer('verified', found);
  return answer((await userIdByEmail(committerEmail)) === owner.id ? 'same_user_different_email' : 'other_user', found);
}
