import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSshPublicKey } from '../../shared/users/ssh-public-key';

/**
 * Real keys are generated once per run. ssh-keygen is preferred, so that the expected fingerprints
 * come from OpenSSH and not from the library under test; without it, node:crypto generates the
 * keys, the OpenSSH lines are assembled by hand from the JWK parts, and the fingerprints are the
 * MD5 / SHA-256 of that hand-built blob.
 */
type KeyName = 'rsa-2048' | 'ed25519' | 'ecdsa-p256' | 'ecdsa-p384' | 'ecdsa-p521';

type KeyFixture = {
  /** The public key file's content, trailing newline included. */
  line: string;
  /** The private key in the generator's own format (OpenSSH or PKCS#8 PEM). */
  privateKey: string;
  type: string;
  bits: number;
  comment: string;
  fingerprintMd5: string;
  fingerprintSha256: string;
};

type KeySpec = {
  name: KeyName;
  type: string;
  bits: number;
  comment: string;
  keygenArgs: string[];
  generate: () => { publicKey: KeyObject; privateKey: KeyObject };
};

const SPECS: KeySpec[] = [
  {
    name: 'rsa-2048',
    type: 'ssh-rsa',
    bits: 2048,
    comment: 'jane@laptop',
    keygenArgs: ['-t', 'rsa', '-b', '2048'],
    generate: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
  },
  {
    name: 'ed25519',
    type: 'ssh-ed25519',
    bits: 256,
    comment: 'Jane Doe (work laptop)',
    keygenArgs: ['-t', 'ed25519'],
    generate: () => generateKeyPairSync('ed25519'),
  },
  {
    name: 'ecdsa-p256',
    type: 'ecdsa-sha2-nistp256',
    bits: 256,
    comment: 'ci@runner-1',
    keygenArgs: ['-t', 'ecdsa', '-b', '256'],
    generate: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  },
  {
    name: 'ecdsa-p384',
    type: 'ecdsa-sha2-nistp384',
    bits: 384,
    comment: 'ops@bastion',
    keygenArgs: ['-t', 'ecdsa', '-b', '384'],
    generate: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }),
  },
  {
    name: 'ecdsa-p521',
    type: 'ecdsa-sha2-nistp521',
    bits: 521,
    comment: 'backup@nas',
    keygenArgs: ['-t', 'ecdsa', '-b', '521'],
    generate: () => generateKeyPairSync('ec', { namedCurve: 'P-521' }),
  },
];

const hasSshKeygen = spawnSync('ssh-keygen', ['-?']).error === undefined;
let workDir: string;
const keys = {} as Record<KeyName, KeyFixture>;
/** A DSA public key line, when ssh-keygen (or node:crypto with sshpk) could make one. */
let dsaLine: string | undefined;
/** A 768-bit RSA public key line, when node:crypto still allows such a short modulus. */
let rsa768Line: string | undefined;

// ---- helpers: the OpenSSH wire format (RFC 4251 string / mpint) and fingerprints, by hand ----

function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function sshMpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start += 1;
  const minimal = unsigned.subarray(start);
  return sshString(minimal[0] & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

/** The OpenSSH public key blob of a node:crypto RSA, Ed25519 or ECDSA key. */
function opensshBlob(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const part = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');
  if (jwk.kty === 'RSA') {
    return Buffer.concat([sshString('ssh-rsa'), sshMpint(part(jwk.e)), sshMpint(part(jwk.n))]);
  }
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    return Buffer.concat([sshString('ssh-ed25519'), sshString(part(jwk.x))]);
  }
  const curve = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' }[jwk.crv ?? ''];
  if (jwk.kty === 'EC' && curve !== undefined) {
    const point = Buffer.concat([Buffer.from([4]), part(jwk.x), part(jwk.y)]);
    return Buffer.concat([sshString(`ecdsa-sha2-${curve}`), sshString(curve), sshString(point)]);
  }
  throw new Error(`no OpenSSH encoding for ${jwk.kty} ${jwk.crv ?? ''}`);
}

function md5Fingerprint(blob: Buffer): string {
  return createHash('md5').update(blob).digest('hex').replace(/(..)(?!$)/g, '$1:');
}

function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The fingerprint field of `ssh-keygen -l -E <hash> -f <file>` ("2048 SHA256:… comment (RSA)"). */
function keygenFingerprint(file: string, hash: 'md5' | 'sha256'): string {
  const result = spawnSync('ssh-keygen', ['-l', '-E', hash, '-f', file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ssh-keygen -l failed: ${result.stderr}`);
  return result.stdout.split(' ')[1];
}

/** Runs ssh-keygen to create `<workDir>/<name>` and `.pub`; false when it refuses (e.g. DSA). */
function keygen(name: string, args: string[], comment: string): boolean {
  const file = join(workDir, name);
  const result = spawnSync('ssh-keygen', ['-q', ...args, '-N', '', '-C', comment, '-f', file]);
  return result.status === 0;
}

function makeFixture(spec: KeySpec): KeyFixture {
  const expected = { type: spec.type, bits: spec.bits, comment: spec.comment };
  if (hasSshKeygen && keygen(spec.name, spec.keygenArgs, spec.comment)) {
    const file = join(workDir, spec.name);
    return {
      ...expected,
      line: readFileSync(`${file}.pub`, 'utf8'),
      privateKey: readFileSync(file, 'utf8'),
      fingerprintMd5: keygenFingerprint(`${file}.pub`, 'md5').replace(/^MD5:/, ''),
      fingerprintSha256: keygenFingerprint(`${file}.pub`, 'sha256'),
    };
  }
  const pair = spec.generate();
  const blob = opensshBlob(pair.publicKey);
  return {
    ...expected,
    line: `${spec.type} ${blob.toString('base64')} ${spec.comment}\n`,
    privateKey: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    fingerprintMd5: md5Fingerprint(blob),
    fingerprintSha256: sha256Fingerprint(blob),
  };
}

function makeDsaLine(): string | undefined {
  if (hasSshKeygen && keygen('dsa', ['-t', 'dsa'], 'old@box')) {
    return readFileSync(join(workDir, 'dsa.pub'), 'utf8');
  }
  try {
    // node:crypto has no JWK for DSA, so sshpk converts here; only the rejection is under test.
    const pair = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
    const pem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    return `${sshpk.parseKey(pem, 'pem').toString('ssh')} old@box\n`;
  } catch {
    return undefined;
  }
}

function makeRsa768Line(): string | undefined {
  try {
    const pair = generateKeyPairSync('rsa', { modulusLength: 768 });
    return `ssh-rsa ${opensshBlob(pair.publicKey).toString('base64')} short@key\n`;
  } catch {
    return undefined; // OpenSSL security level refuses the modulus: nothing to test then.
  }
}

/** The base64 blob (second field) of a key line. */
function blobOf(line: string): string {
  return line.trim().split(' ')[1];
}

/** Flips a few base64 characters in the middle of a key line's blob. */
function corruptMiddle(line: string): string {
  const blob = blobOf(line);
  const middle = Math.floor(blob.length / 2);
  const flipped = [...blob]
    .map((char, index) => (index >= middle && index < middle + 3 ? (char === 'A' ? 'B' : 'A') : char))
    .join('');
  return line.replace(blob, flipped);
}

/** Replaces the base64 character before the padding so that its unused low bits are not zero. */
function strayBits(_match: string, last: string, padding: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  return `${alphabet[alphabet.indexOf(last) | 1]}${padding} `;
}

/** Wraps text into lines of `width` characters, as terminals and mail clients do. */
function wrap(text: string, width: number, lineBreak = '\n'): string {
  return (text.match(new RegExp(`[^]{1,${width}}`, 'g')) ?? []).join(lineBreak);
}

/** Wraps only the base64 blob of a key line. */
function wrapBlob(line: string, width: number, lineBreak = '\n'): string {
  return line.replace(blobOf(line), wrap(blobOf(line), width, lineBreak));
}

/** The public key line of a generated fixture. */
function lineOf(name: KeyName): string {
  return keys[name].line;
}

/** A security-key (FIDO) public key blob, built by hand as OpenSSH's PROTOCOL.u2f describes. */
function securityKeyLine(type: 'sk-ssh-ed25519@openssh.com' | 'sk-ecdsa-sha2-nistp256@openssh.com') {
  const blob =
    type === 'sk-ssh-ed25519@openssh.com'
      ? Buffer.concat([sshString(type), sshString(randomBytes(32)), sshString('ssh:')])
      : Buffer.concat([
          sshString(type),
          sshString('nistp256'),
          // The point of a real P-256 key: the third field of its ecdsa-sha2-nistp256 blob.
          sshString(opensshBlob(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey).subarray(39)),
          sshString('ssh:'),
        ]);
  return `${type} ${blob.toString('base64')} yubikey\n`;
}

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'ssh-public-key-test-'));
  for (const spec of SPECS) keys[spec.name] = makeFixture(spec);
  dsaLine = makeDsaLine();
  rsa768Line = makeRsa768Line();
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('parseSshPublicKey', () => {
  describe('with a freshly generated public key', () => {
    it.each(SPECS.map((spec) => spec.name))('reports the type, size and comment of a %s key', (name) => {
      // Prepare
      const fixture = keys[name];

      // Act
      const parsed = parseSshPublicKey(fixture.line);

      // Assess
      expect(parsed).toMatchObject({ type: fixture.type, bits: fixture.bits, comment: fixture.comment });
    });

    it.each(SPECS.map((spec) => spec.name))(
      'computes the same MD5 and SHA256 fingerprints as OpenSSH for a %s key',
      (name) => {
        // Prepare
        const fixture = keys[name];

        // Act
        const parsed = parseSshPublicKey(fixture.line);

        // Assess
        expect(parsed?.fingerprintMd5).toBe(fixture.fingerprintMd5);
        expect(parsed?.fingerprintMd5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
        expect(parsed?.fingerprintSha256).toBe(fixture.fingerprintSha256);
        expect(parsed?.fingerprintSha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      },
    );

    it.each(SPECS.map((spec) => spec.name))('normalizes a %s key to its public key file line', (name) => {
      // Prepare
      const fixture = keys[name];

      // Act
      const parsed = parseSshPublicKey(fixture.line);

      // Assess
      expect(parsed?.normalized).toBe(fixture.line.trim());
    });
  });

  describe('as pasted by a user', () => {
    it.each<[string, (line: string) => string]>([
      ['without the trailing newline', (line) => line.trim()],
      ['with a CRLF line ending', (line) => `${line.trim()}\r\n`],
      ['with blank lines and spaces around it', (line) => `\n  \t${line.trim()}  \n\n`],
      ['with the base64 wrapped at 64 columns', (line) => wrapBlob(line, 64)],
      ['with the base64 wrapped at 60 columns using CRLF', (line) => wrapBlob(line, 60, '\r\n')],
      ['with the whole line hard-wrapped at 70 columns', (line) => wrap(line.trim(), 70)],
      ['with the comment on a line of its own', (line) => line.trim().replace(/ (\S+)$/, '\n$1')],
    ])('accepts and normalizes a key %s', (_label, paste) => {
      // Prepare
      const fixture = keys['rsa-2048'];
      const pasted = paste(fixture.line);

      // Act
      const parsed = parseSshPublicKey(pasted);

      // Assess
      expect(parsed?.normalized).toBe(fixture.line.trim());
      expect(parsed?.comment).toBe(fixture.comment);
      expect(parsed?.fingerprintSha256).toBe(fixture.fingerprintSha256);
    });

    it('accepts a key without a comment and reports the comment as null', () => {
      // Prepare
      const fixture = keys['ed25519'];
      const bare = `${fixture.type} ${blobOf(fixture.line)}\n`;

      // Act
      const parsed = parseSshPublicKey(bare);

      // Assess
      expect(parsed?.comment).toBeNull();
      expect(parsed?.normalized).toBe(`${fixture.type} ${blobOf(fixture.line)}`);
      expect(parsed?.fingerprintMd5).toBe(fixture.fingerprintMd5);
    });

    it('joins a comment that was wrapped onto the next line', () => {
      // Prepare
      const fixture = keys['ed25519'];
      const pasted = fixture.line.replace('Jane Doe (work laptop)', 'Jane Doe (wo\r\nrk laptop)');

      // Act
      const parsed = parseSshPublicKey(pasted);

      // Assess
      expect(parsed?.comment).toBe('Jane Doe (work laptop)');
      expect(parsed?.normalized).toBe(fixture.line.trim());
    });

    it('keeps the spaces inside a comment', () => {
      // Prepare
      const fixture = keys['ed25519'];

      // Act
      const parsed = parseSshPublicKey(fixture.line);

      // Assess
      expect(parsed?.comment).toBe('Jane Doe (work laptop)');
    });
  });

  describe('with anything but exactly one valid OpenSSH public key', () => {
    it.each<[string, () => string]>([
      ['an empty string', () => ''],
      ['only whitespace', () => ' \r\n\t '],
      ['random text', () => 'garbage'],
      ['a type without a blob', () => 'ssh-rsa'],
      ['a blob too short to hold a key', () => 'ssh-rsa AAAA'],
      ['a blob that is not base64', () => `ssh-ed25519 ${blobOf(lineOf('ed25519')).replace(/.{4}$/, '!!!!')}`],
      ['a blob broken by a space rather than a line break', () => wrapBlob(lineOf('rsa-2048'), 64, ' ')],
      ['a blob with its base64 padding removed', () => lineOf('ecdsa-p256').replace(/=+ /, ' ')],
      ['a blob with stray bits before its base64 padding', () => lineOf('ecdsa-p256').replace(/(.)(=+) /, strayBits)],
      ['a blob cut in half', () => `ssh-rsa ${blobOf(lineOf('rsa-2048')).slice(0, 200)} jane@laptop`],
      ['a blob with characters flipped in the middle', () => corruptMiddle(lineOf('ecdsa-p256'))],
      ['a blob whose length fields are corrupted', () => lineOf('ed25519').replace('AAAAC3', 'AAAAD3')],
      [
        'a blob with extra data after the key',
        () => {
          const blob = Buffer.from(blobOf(lineOf('ed25519')), 'base64');
          return `ssh-ed25519 ${Buffer.concat([blob, sshString(randomBytes(32))]).toString('base64')}`;
        },
      ],
      ['an RSA blob behind an ssh-ed25519 prefix', () => lineOf('rsa-2048').replace('ssh-rsa', 'ssh-ed25519')],
      ['an Ed25519 blob behind an ssh-rsa prefix', () => lineOf('ed25519').replace('ssh-ed25519', 'ssh-rsa')],
      [
        'a P-384 blob behind a nistp256 prefix',
        () => lineOf('ecdsa-p384').replace('ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp256'),
      ],
      ['a private key file', () => keys['ed25519'].privateKey],
      [
        'a PKCS#8 PEM private key',
        () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      ],
      [
        'a PEM (SPKI) public key',
        () => generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      ],
      ['two keys on separate lines', () => `${lineOf('rsa-2048')}${lineOf('ed25519')}`],
      ['two keys on one line', () => `${lineOf('rsa-2048').trim()} ${lineOf('ed25519')}`],
      [
        'two comment-less keys on separate lines',
        () => `ssh-ed25519 ${blobOf(lineOf('ed25519'))}\nssh-rsa ${blobOf(lineOf('rsa-2048'))}\n`,
      ],
      ['a key with a command="…" option prefix', () => `command="echo hi" ${lineOf('ed25519')}`],
      ['a key with a no-pty option prefix', () => `no-pty ${lineOf('rsa-2048')}`],
      // sshpk 1.18 has no FIDO security-key support ("Unknown algorithm"), so these are refused.
      ['an sk-ssh-ed25519@openssh.com security key', () => securityKeyLine('sk-ssh-ed25519@openssh.com')],
      [
        'an sk-ecdsa-sha2-nistp256@openssh.com security key',
        () => securityKeyLine('sk-ecdsa-sha2-nistp256@openssh.com'),
      ],
    ])('rejects %s', (_label, build) => {
      // Prepare
      const input = build();

      // Act
      const parsed = parseSshPublicKey(input);

      // Assess
      expect(parsed).toBeUndefined();
    });

    it('rejects a DSA key, which GitLab refuses by default', (context) => {
      // Prepare
      if (dsaLine === undefined) return context.skip('neither ssh-keygen nor node:crypto can make a DSA key');
      const input = dsaLine;

      // Act
      const parsed = parseSshPublicKey(input);

      // Assess
      expect(input.startsWith('ssh-dss ')).toBe(true);
      expect(parsed).toBeUndefined();
    });

    it('rejects an RSA key shorter than 1024 bits', (context) => {
      // Prepare (ssh-keygen refuses to make one, so node:crypto does)
      if (rsa768Line === undefined) return context.skip('node:crypto refuses a 768-bit modulus here');
      const input = rsa768Line;

      // Act
      const parsed = parseSshPublicKey(input);

      // Assess
      expect(parsed).toBeUndefined();
    });
  });
});

describe('sshpk, the parser behind parseSshPublicKey', () => {
  it('cannot parse security-key (sk-*) blobs, which is why they are not accepted yet', () => {
    // Prepare
    const blob = Buffer.from(blobOf(securityKeyLine('sk-ssh-ed25519@openssh.com')), 'base64');

    // Act
    const parse = () => sshpk.parseKey(blob, 'rfc4253');

    // Assess
    expect(parse).toThrow(/Unknown algorithm sk-ssh-ed25519@openssh\.com/);
  });
});
