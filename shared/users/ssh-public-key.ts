import { createPublicKey } from 'node:crypto';
import sshpk from 'sshpk';

/** What {@link parseSshPublicKey} tells about one accepted OpenSSH public key. */
export type ParsedSshKey = {
  /** The OpenSSH algorithm name, e.g. `ssh-rsa`, `ssh-ed25519`, `ecdsa-sha2-nistp256`. */
  type: string;
  /** Key size: the RSA modulus length, 256 for Ed25519, the curve size for ECDSA. */
  bits: number;
  /** The free-text comment after the key (often `user@host`), or `null` when there is none. */
  comment: string | null;
  /** GitLab's classic fingerprint: colon-separated lowercase hex MD5 of the key blob (`aa:bb:…`). */
  fingerprintMd5: string;
  /** OpenSSH's fingerprint: `SHA256:` and the unpadded base64 SHA-256 of the key blob. */
  fingerprintSha256: string;
  /** `<type> <base64>`, then ` <comment>` if any: outer whitespace trimmed, line breaks removed. */
  normalized: string;
};

/**
 * The algorithms accepted, by OpenSSH name. `ssh-dss` is left out because GitLab refuses DSA keys
 * by default. `sk-ssh-ed25519@openssh.com` and `sk-ecdsa-sha2-nistp256@openssh.com` (FIDO/U2F
 * security keys) are left out because sshpk 1.18 cannot parse them ("Unknown algorithm").
 */
const ACCEPTED_TYPES: ReadonlySet<string> = new Set([
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
]);

/** RSA modulus bounds: GitLab's historical minimum, and OpenSSH's maximum. */
const RSA_MIN_BITS = 1024;
const RSA_MAX_BITS = 16384;

/** Well above a 16384-bit RSA line (about 2.8 KB) with a long comment; bounds the work done. */
const MAX_INPUT_LENGTH = 16 * 1024;

/** A 16384-bit RSA blob wrapped at 11 columns still fits; bounds the (quadratic) gluing below. */
const MAX_BLOB_PIECES = 256;

/** One wrapped piece of the blob; `=` padding may only end the last piece. */
const BASE64_PIECE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Control characters other than tab, line feed and carriage return never occur in a key line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * A second key hiding in the comment: every key blob starts with `AAAA` (the big-endian length of
 * its algorithm name), so a long base64 word starting with it means two keys were pasted.
 */
const SECOND_KEY_BLOB = /(^|\s)AAAA[A-Za-z0-9+/]{16,}/;

const LINE_BREAKS = /\r\n|\r|\n/g;

/**
 * Parses and validates one OpenSSH public key line as users paste it into GitLab (`POST /user/keys`
 * with `key`), e.g. the contents of `~/.ssh/id_ed25519.pub`.
 *
 * Why sshpk: it decodes the real key blob, checks the algorithm and the key parts, and computes
 * fingerprints; splitting on spaces and base64-decoding by hand would accept garbage. node:crypto
 * then loads the key material as a second check (sshpk does not verify that an ECDSA point lies on
 * its curve).
 *
 * Accepted: `ssh-rsa` (1024 to 16384 bits), `ssh-ed25519`, `ecdsa-sha2-nistp256/384/521`, with an
 * optional comment. Surrounding whitespace, a trailing newline or CRLF, and line breaks inside the
 * base64 (copy-paste wrapping) or before the comment are tolerated and removed in `normalized`.
 *
 * Rejected (returns `undefined`): empty or random text, private keys (PEM or OpenSSH), truncated or
 * corrupted blobs, blobs whose embedded algorithm disagrees with the prefix, more than one key,
 * `authorized_keys` options before the type (`command="…" ssh-rsa …`), DSA keys, RSA keys below
 * 1024 bits, security-key (`sk-…@openssh.com`) keys, which sshpk cannot parse.
 *
 * @example
 * ```ts
 * const key = parseSshPublicKey('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI… jane@laptop\r\n');
 * if (key === undefined) throw badRequest('key is invalid');
 * key.type;              // 'ssh-ed25519'
 * key.bits;              // 256
 * key.comment;           // 'jane@laptop'
 * key.fingerprintMd5;    // '52:7f:22:b3:…'
 * key.fingerprintSha256; // 'SHA256:DBXoTkRTbukoI6gENjyQQlnTQvIvkq9Rm76pzQbOldo'
 * key.normalized;        // 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI… jane@laptop'
 * ```
 */
export function parseSshPublicKey(text: string): ParsedSshKey | undefined {
  if (typeof text !== 'string' || text.length > MAX_INPUT_LENGTH) return undefined;
  const trimmed = text.trim();
  if (trimmed === '' || CONTROL_CHARACTER.test(trimmed)) return undefined;

  // Words and the whitespace between them: [word, separator, word, separator, …, word].
  const tokens = trimmed.split(/([ \t\r\n]+)/);
  const type = tokens[0];
  // Anything before the type (authorized_keys options, PEM armour, prose) ends here.
  if (!ACCEPTED_TYPES.has(type) || tokens.length < 3) return undefined;

  // The blob may have been wrapped: glue words across separators holding a line break, and take
  // the shortest run that is a complete key. The rest, if any, is the comment.
  let base64 = '';
  const lastIndex = Math.min(tokens.length - 1, 2 * MAX_BLOB_PIECES);
  for (let index = 2; index <= lastIndex; index += 2) {
    const word = tokens[index];
    if (index > 2 && !/[\r\n]/.test(tokens[index - 1])) break;
    if (!BASE64_PIECE.test(word) || base64.includes('=')) break;
    base64 += word;
    const parsed = parseBlob(type, base64);
    if (parsed === undefined) continue;
    const commentSource = tokens.slice(index + 2).join('');
    return toParsedKey(type, base64, parsed, commentSource);
  }
  return undefined;
}

/** Internal: the sshpk key for a base64 blob, if it is a valid public key of exactly `type`. */
function parseBlob(type: string, base64: string): sshpk.Key | undefined {
  const blob = Buffer.from(base64, 'base64');
  // Canonical base64 only, as OpenSSH reads it: padded, and no stray bits before the padding.
  if (blob.toString('base64') !== base64) return undefined;
  if (embeddedAlgorithm(blob) !== type) return undefined;

  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(blob, 'rfc4253');
  } catch {
    return undefined;
  }
  // A blob with extra parts parses as a private key; a public key line never carries one.
  if (key instanceof sshpk.PrivateKey) return undefined;
  // sshpk rewrites non-minimal encodings; insist on the blob as OpenSSH itself would write it.
  if (!key.toBuffer('rfc4253').equals(blob)) return undefined;
  if (key.toString('ssh').split(' ')[0] !== type) return undefined;
  if (key.type === 'rsa' && (key.size < RSA_MIN_BITS || key.size > RSA_MAX_BITS)) return undefined;
  try {
    createPublicKey(key.toString('pkcs8'));
  } catch {
    return undefined;
  }
  return key;
}

/** Internal: the algorithm name a key blob starts with (an SSH `string`), if readable. */
function embeddedAlgorithm(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (length > 64 || blob.length < 4 + length) return undefined;
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** Internal: the result for an accepted key; `undefined` when the comment hides a second key. */
function toParsedKey(
  type: string,
  base64: string,
  key: sshpk.Key,
  commentSource: string,
): ParsedSshKey | undefined {
  if (SECOND_KEY_BLOB.test(commentSource)) return undefined;
  const comment = commentSource.replace(LINE_BREAKS, '').trim() || null;
  return {
    type,
    bits: key.size,
    comment,
    fingerprintMd5: key.fingerprint('md5').toString('hex'),
    fingerprintSha256: key.fingerprint('sha256').toString('base64'),
    normalized: comment === null ? `${type} ${base64}` : `${type} ${base64} ${comment}`,
  };
}
