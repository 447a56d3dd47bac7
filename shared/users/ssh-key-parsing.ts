/**
 * The SSH public key parser (`ssh-public-key.ts`: sshpk and its crypto, ~150 KB) for other features
 * (deploy keys), loaded by the first key a process parses, never at cold start: this module
 * imports it only dynamically, so the users feature's index can export it.
 */
import type { ParsedSshKey } from './ssh-public-key';

export type { ParsedSshKey };

/** {@link import('./ssh-public-key').parseSshPublicKey}, loaded on first use: the same keys accepted, the same sizes, the same fingerprints. */
export async function parseSshPublicKeyLazily(text: string): Promise<ParsedSshKey | undefined> {
  const { parseSshPublicKey } = await import('./ssh-public-key');
  return parseSshPublicKey(text);
}
