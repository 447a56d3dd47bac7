/**
 * Commit signatures: the `gpgsig` header split from the bytes it signs, its kind (as Gitaly tells
 * them apart), SSH signatures (OpenSSH's SSHSIG format, `git -c gpg.format=ssh commit -S`) verified
 * with node:crypto (OpenPGP signatures: `pgp.ts`).
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import sshpk from 'sshpk';

/** GitLab's `signature_type`. */
export type SignatureKind = 'PGP' | 'SSH' | 'X509';

/** A signed commit: its signature text and the bytes it signs (the commit without its `gpgsig` header). */
export interface SignedCommit {
  signature: string;
  payload: Buffer;
}

/**
 * Splits a commit body into its `gpgsig` header and the rest, byte for byte, as git's
 * `parse_signed_commit` does; `undefined` for an unsigned commit.
 */
export function splitSignedCommit(body: Buffer): SignedCommit | undefined {
  const headerEnd = body.indexOf('\n\n');
  const end = headerEnd < 0 ? body.length : headerEnd + 1;
  const kept: Buffer[] = [];
  const lines: string[] = [];
  let inSignature = false;
  let found = false;
  for (let start = 0; start < end; ) {
    const newline = body.indexOf(0x0a, start);
    const next = newline < 0 || newline >= end ? end : newline + 1;
    const line = body.subarray(start, next);
    if (inSignature && line[0] === 0x20) {
      lines.push(line.toString('utf8', 1).replace(/\n$/, ''));
    } else if (!found && line.subarray(0, 7).toString('latin1') === 'gpgsig ') {
      inSignature = found = true;
      lines.push(line.toString('utf8', 7).replace(/\n$/, ''));
    } else {
      inSignature = false;
      kept.push(line);
    }
    start = next;
  }
  if (!found) return undefined;
  kept.push(body.subarray(end));
  return { signature: `${lines.join('\n')}\n`, payload: Buffer.concat(kept) };
}

/** The kind of a signature by its armour, as Gitaly's `detectSignatureType`; `undefined` for anything else. */
export function signatureKind(signature: string): SignatureKind | undefined {
  if (signature.startsWith('-----BEGIN PGP SIGNATURE-----')) return 'PGP';
  if (signature.startsWith('-----BEGIN SSH SIGNATURE-----')) return 'SSH';
  if (signature.startsWith('-----BEGIN SIGNED MESSAGE-----')) return 'X509';
  return undefined;
}

/** The base64 between an armour's BEGIN and END lines (armour headers and the CRC line left out). */
function dearmor(text: string, label: string): Buffer | undefined {
  const lines = text.split(/\r?\n/);
  const begin = lines.findIndex((line) => line.trim() === `-----BEGIN ${label}-----`);
  const end = lines.findIndex((line) => line.trim() === `-----END ${label}-----`);
  if (begin < 0 || end <= begin) return undefined;
  let body = lines.slice(begin + 1, end);
  // OpenPGP armour: `Key: value` headers up to an empty line.
  const blank = body.findIndex((line) => line.trim() === '');
  if (blank >= 0 && body.slice(0, blank).every((line) => /^[^:\s]+: /.test(line))) body = body.slice(blank + 1);
  const base64 = body.filter((line) => !line.startsWith('=')).join('').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  return Buffer.from(base64, 'base64');
}

/** Reads SSH wire-format `string`s one after another. */
class WireReader {
  private position = 0;
  constructor(private readonly buffer: Buffer) {}

  bytes(length: number): Buffer {
    if (this.position + length > this.buffer.length) throw new RangeError('truncated');
    const value = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return value;
  }

  uint32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  string(): Buffer {
    return this.bytes(this.uint32());
  }

  get done(): boolean {
    return this.position === this.buffer.length;
  }
}

const wireString = (value: Buffer | string): Buffer => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/** An SSHSIG signature (OpenSSH's `PROTOCOL.sshsig`). */
export interface SshSignature {
  /** The signer's public key blob (`ssh-ed25519 …` wire format). */
  publicKey: Buffer;
  namespace: string;
  reserved: Buffer;
  hashAlgorithm: string;
  /** The signature blob: its algorithm name and bytes. */
  signature: Buffer;
}

const SSHSIG_MAGIC = Buffer.from('SSHSIG');

/** Parses an armoured SSHSIG; `undefined` when it is not one. */
export function parseSshSignature(armoured: string): SshSignature | undefined {
  const blob = dearmor(armoured, 'SSH SIGNATURE');
  if (!blob) return undefined;
  try {
    const reader = new WireReader(blob);
    if (!reader.bytes(6).equals(SSHSIG_MAGIC) || reader.uint32() !== 1) return undefined;
    const publicKey = reader.string();
    const namespace = reader.string().toString('utf8');
    const reserved = reader.string();
    const hashAlgorithm = reader.string().toString('utf8');
    const signature = reader.string();
    return reader.done ? { publicKey, namespace, reserved, hashAlgorithm, signature } : undefined;
  } catch {
    return undefined;
  }
}

/** OpenSSH's fingerprint of a public key blob: `SHA256:` and the unpadded base64 of its SHA-256. */
export function sshFingerprint(publicKey: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKey).digest('base64').replace(/=+$/, '')}`;
}

/** The hash and signature encoding of each signature algorithm, by the key type it needs. */
const SIGNATURE_ALGORITHMS: Record<string, { keyType: string; hash: string | null; ecdsaBytes?: number }> = {
  'ssh-ed25519': { keyType: 'ssh-ed25519', hash: null },
  'rsa-sha2-256': { keyType: 'ssh-rsa', hash: 'sha256' },
  'rsa-sha2-512': { keyType: 'ssh-rsa', hash: 'sha512' },
  'ecdsa-sha2-nistp256': { keyType: 'ecdsa-sha2-nistp256', hash: 'sha256', ecdsaBytes: 32 },
  'ecdsa-sha2-nistp384': { keyType: 'ecdsa-sha2-nistp384', hash: 'sha384', ecdsaBytes: 48 },
  'ecdsa-sha2-nistp521': { keyType: 'ecdsa-sha2-nistp521', hash: 'sha512', ecdsaBytes: 66 },
};

/** An SSH `mpint` as a fixed-size unsigned big-endian integer (IEEE P1363 halves). */
function fixedSize(mpint: Buffer, size: number): Buffer {
  let start = 0;
  while (start < mpint.length - 1 && mpint[start] === 0) start++;
  const value = mpint.subarray(start);
  if (value.length > size) throw new RangeError('integer too large');
  return Buffer.concat([Buffer.alloc(size - value.length), value]);
}

function keyObject(publicKey: Buffer): KeyObject {
  const key = sshpk.parseKey(publicKey, 'rfc4253');
  return createPublicKey(key.toString('pkcs8'));
}

/**
 * Whether an SSHSIG signs `message` in git's namespace: the signature checked with its own public
 * key (ed25519, rsa-sha2-256/512, ecdsa-sha2-nistp256/384/521). Certificates and security keys
 * (`sk-…@openssh.com`) are not verified (false). Whose key it is, is the caller's question.
 */
export function verifySshSignature(signature: SshSignature, message: Buffer, namespace = 'git'): boolean {
  if (signature.namespace !== namespace) return false;
  if (signature.hashAlgorithm !== 'sha256' && signature.hashAlgorithm !== 'sha512') return false;
  try {
    const blob = new WireReader(signature.signature);
    const algorithm = blob.string().toString('latin1');
    const bytes = blob.string();
    const expected = SIGNATURE_ALGORITHMS[algorithm];
    const keyType = new WireReader(signature.publicKey).string().toString('latin1');
    if (!expected || expected.keyType !== keyType) return false;
    const signed = Buffer.concat([
      SSHSIG_MAGIC,
      wireString(signature.namespace),
      wireString(signature.reserved),
      wireString(signature.hashAlgorithm),
      wireString(createHash(signature.hashAlgorithm).update(message).digest()),
    ]);
    const key = keyObject(signature.publicKey);
    if (expected.ecdsaBytes === undefined) return verify(expected.hash, signed, key, bytes);
    const parts = new WireReader(bytes);
    const r = fixedSize(parts.string(), expected.ecdsaBytes);
    const s = fixedSize(parts.string(), expected.ecdsaBytes);
    return verify(expected.hash, signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.concat([r, s]));
  } catch {
    return false;
  }
}
