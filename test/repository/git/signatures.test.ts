import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPgpSignature } from '../../../shared/repository/git/objects/pgp';
import {
  parseSshSignature,
  signatureKind,
  splitSignedCommit,
  sshFingerprint,
  verifySshSignature,
} from '../../../shared/repository/git/objects/signatures';
import { GPG_SIGNATURE } from './pgp-signature';

/** A new-format v4 signature packet with only an issuer key id (subpacket 16, unhashed). */
function keyIdOnlySignature(): string {
  const hashed = Buffer.from([5, 2, 0x6b, 0x0b, 0x7f, 0xe1]);
  const unhashed = Buffer.from([9, 16, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0]);
  const body = Buffer.concat([
    Buffer.from([4, 0, 22, 8, 0, hashed.length]),
    hashed,
    Buffer.from([0, unhashed.length]),
    unhashed,
    Buffer.from([0xbc, 0x0e, 0, 8, 0xff, 0, 8, 0xff]) // hash's first bytes, then the two EdDSA values (one byte each),
  ]);
  const packet = Buffer.concat([Buffer.from([0xc2, body.length]), body]);
  return `-----BEGIN PGP SIGNATURE-----\nVersion: test\n\n${packet.toString('base64')}\n=AAAA\n-----END PGP SIGNATURE-----\n`;
}

const directory = mkdtempSync(join(tmpdir(), 'sshsig-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A key made by ssh-keygen and a file signed with it in git's namespace. */
function sshSigned(type: string, bits?: number): { signature: string; message: Buffer; fingerprint: string } {
  const key = join(directory, `${type}${bits ?? ''}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', 'test', '-f', key]);
  const message = Buffer.from(`tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nsigned with ${type}\n`);
  writeFileSync(`${key}.msg`, message);
  execFileSync('ssh-keygen', ['-q', '-Y', 'sign', '-n', 'git', '-f', key, `${key}.msg`]);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${key}.pub`]).toString().split(' ')[1];
  return { signature: readFileSync(`${key}.msg.sig`, 'utf8'), message, fingerprint };
}

describe('commit signatures', () => {
  it('splits the gpgsig header from the bytes it signs, byte for byte', () => {
    const signature = '-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n\n-----END SSH SIGNATURE-----';
    const head = 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n';
    const signed = Buffer.from(`${head}gpgsig ${signature.split('\n').join('\n ')}\nencoding ISO-8859-1\n\nmessage\n\n with a blank line\n`);
    expect(splitSignedCommit(signed)).toEqual({
      signature: `${signature}\n`,
      payload: Buffer.from(`${head}encoding ISO-8859-1\n\nmessage\n\n with a blank line\n`),
    });
    expect(splitSignedCommit(Buffer.from(`${head}\ngpgsig not a header\n`))).toBeUndefined();
    expect([GPG_SIGNATURE, signature, '-----BEGIN SIGNED MESSAGE-----\nx', 'garbage'].map(signatureKind)).toEqual(['PGP', 'SSH', 'X509', undefined]);
  });

  it('reads the issuer of an OpenPGP signature: its fingerprint, else its key id', async () => {
    expect(await readPgpSignature(GPG_SIGNATURE)).toMatchObject({ count: 1, keyids: ['74BB0A8E550A02B6'], issuer: 'B48B9B31E383A6B0C925721574BB0A8E550A02B6' });
    expect(await readPgpSignature(keyIdOnlySignature())).toMatchObject({ count: 1, keyids: ['123456789ABCDEF0'], issuer: '123456789ABCDEF0' });
    expect(await readPgpSignature('-----BEGIN PGP SIGNATURE-----\n\n!!!\n-----END PGP SIGNATURE-----')).toBeUndefined();
    expect(await readPgpSignature('-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----')).toBeUndefined();
  });

  it.each([
    ['ed25519', undefined],
    ['rsa', 2048],
    ['ecdsa', 256],
    ['ecdsa', 384],
    ['ecdsa', 521],
  ])('verifies SSH signatures made by ssh-keygen -Y sign (%s %s)', (type, bits) => {
    const { signature, message, fingerprint } = sshSigned(type, bits);
    const parsed = parseSshSignature(signature)!;
    expect(parsed.namespace).toBe('git');
    expect(sshFingerprint(parsed.publicKey)).toBe(fingerprint);
    expect(verifySshSignature(parsed, message)).toBe(true);
    expect(verifySshSignature(parsed, Buffer.concat([message, Buffer.from('x')]))).toBe(false);
    expect(verifySshSignature(parsed, message, 'file')).toBe(false);
    const forged = { ...parsed, signature: Buffer.from(parsed.signature).fill(1, parsed.signature.length - 8) };
    expect(verifySshSignature(forged, message)).toBe(false);
  });

  it('refuses what is not an SSHSIG', () => {
    expect(parseSshSignature('-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----')).toBeUndefined();
    expect(parseSshSignature(GPG_SIGNATURE)).toBeUndefined();
  });
});
