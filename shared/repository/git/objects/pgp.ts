/**
 * OpenPGP commit signatures (`git commit -S` with gpg), read and checked with OpenPGP.js: the
 * issuer (the key a signature names, by fingerprint when it carries one, else by key id) and
 * whether a signature is good for a commit's bytes under a user's public key.
 */
import { createMessage, readKey, readSignature, verify, type Signature } from 'openpgp';

export interface PgpSignature {
  signature: Signature;
  /** How many signatures the block holds (GitLab's `multiple_signatures` above one). */
  count: number;
  /** The key ids (upper-case hex) the signatures name. */
  keyids: string[];
  /** The first signature's issuer fingerprint (upper-case hex) if it names one, else its key id. */
  issuer: string | undefined;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/** The signatures in an armoured `PGP SIGNATURE` block, or undefined when it cannot be read. */
export async function readPgpSignature(armoured: string): Promise<PgpSignature | undefined> {
  try {
    const signature = await readSignature({ armoredSignature: armoured });
    const packets = [...signature.packets];
    if (packets.length === 0) return undefined;
    const keyids = packets.map((packet) => packet.issuerKeyID.toHex().toUpperCase());
    const fingerprint = packets[0].issuerFingerprint;
    return { signature, count: packets.length, keyids, issuer: fingerprint ? hex(fingerprint) : keyids[0] };
  } catch {
    return undefined;
  }
}

/** Whether `signature` signs exactly `payload` with a key of the armoured public key `armouredKey`. */
export async function verifyPgpSignature(signature: Signature, payload: Buffer, armouredKey: string): Promise<boolean> {
  try {
    const key = await readKey({ armoredKey: armouredKey });
    const { signatures } = await verify({ message: await createMessage({ binary: payload }), signature, verificationKeys: key });
    return signatures.length > 0 && (await signatures[0].verified);
  } catch {
    return false;
  }
}
