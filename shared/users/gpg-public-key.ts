/**
 * A GPG public key as GitLab reads one (`GpgKey`, `Gitlab::Gpg`): the armoured block GitLab's
 * format rule accepts, its primary key's fingerprint and key id, its subkeys' (a signature names
 * the subkey that made it) and its user ids' names and emails. Parsed by OpenPGP.js, the
 * maintained OpenPGP implementation in JavaScript: GitLab runs `gpg` (GPGME), which a Lambda
 * function has not. Loaded on first use (`import()`): about 400 KB a function never loads until a
 * key is added or a signature checked.
 */
import { readKey } from 'openpgp';

export interface GpgUserInfo {
  name: string;
  /** Lower case, as GitLab compares it. */
  email: string;
}

export interface ParsedGpgKey {
  /** Upper-case hex, as GitLab presents it. */
  fingerprint: string;
  /** The last 16 hex digits of the fingerprint (upper case). */
  primaryKeyid: string;
  subkeys: Array<{ keyid: string; fingerprint: string }>;
  userInfos: GpgUserInfo[];
}

const PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----';

/** GitLab's format rule on the stripped text: one block, from its first line to its last. */
export function isGpgKeyBlock(text: string): boolean {
  if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) return false;
  const inner = text.slice(PREFIX.length, -SUFFIX.length);
  return inner.length > 0 && !inner.includes(PREFIX) && !inner.includes(SUFFIX);
}

/** The key's identities, or undefined when OpenPGP.js cannot read a public key in `text`. */
export async function parseGpgPublicKey(text: string): Promise<ParsedGpgKey | undefined> {
  try {
    const key = await readKey({ armoredKey: text });
    if (key.isPrivate()) return undefined;
    return {
      fingerprint: key.getFingerprint().toUpperCase(),
      primaryKeyid: key.getKeyID().toHex().toUpperCase(),
      subkeys: key.subkeys.map((subkey) => ({ keyid: subkey.getKeyID().toHex().toUpperCase(), fingerprint: subkey.getFingerprint().toUpperCase() })),
      userInfos: key.users.flatMap((user) => (user.userID ? [{ name: user.userID.name, email: user.userID.email.toLowerCase() }] : [])),
    };
  } catch {
    return undefined;
  }
}
