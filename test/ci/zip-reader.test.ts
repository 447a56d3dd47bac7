/**
 * The zip reader behind `GET …/jobs/:job_id/artifacts/*artifact_path`: one entry out of an archive
 * read through ranged reads only (never the whole archive), stored and deflated entries byte for
 * byte, `./` names, directories and missing names, zip64 archives, data prepended to the archive,
 * and damaged archives (refused, or the stream ended with an error).
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { findEntry, openEntry, UnsupportedZipError, ZipFormatError, type ByteSource } from '../../shared/ci/zip-reader';

/** An archive in memory, counting what is read of it. */
function bufferSource(archive: Uint8Array): ByteSource & { bytesRead: number; reads: number } {
  const data = Buffer.from(archive);
  const source = {
    bytesRead: 0,
    reads: 0,
    size: async () => data.length,
    read: async (start: number, end: number) => {
      source.reads++;
      source.bytesRead += end - start;
      return data.subarray(start, end);
    },
    // Streamed in small chunks, as an S3 body comes; counts only what is consumed.
    stream: async (start: number, end: number) => {
      source.reads++;
      return (async function* () {
        for (let at = start; at < end; at += 1000) {
          source.bytesRead += Math.min(1000, end - at);
          yield data.subarray(at, Math.min(end, at + 1000));
        }
      })();
    },
  };
  return source;
}

async function contentOf(source: ByteSource, name: string): Promise<Buffer | undefined> {
  const entry = await findEntry(source, name);
  if (!entry) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(source, entry)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A zip64 archive of stored files (every size and offset in zip64 extra fields), as large-archive writers make it. */
function zip64Of(files: Record<string, Buffer>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const u16 = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n >>> 0);
    return b;
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  for (const [name, data] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const localExtra = Buffer.concat([u16(1), u16(16), u64(data.length), u64(data.length)]);
    const local = Buffer.concat([u32(0x04034b50), u16(45), u16(0x800), u16(0), u16(0), u16(0), u32(crc), u32(0xffffffff), u32(0xffffffff), u16(nameBytes.length), u16(localExtra.length), nameBytes, localExtra, data]);
    const extra = Buffer.concat([u16(1), u16(24), u64(data.length), u64(data.length), u64(offset)]);
    central.push(Buffer.concat([u32(0x02014b50), u16(45), u16(45), u16(0x800), u16(0), u16(0), u16(0), u32(crc), u32(0xffffffff), u32(0xffffffff), u16(nameBytes.length), u16(extra.length), u16(0), u16(0), u16(0), u32(0), u32(0xffffffff), nameBytes, extra]));
    parts.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(central);
  const count = central.length;
  const record = Buffer.concat([u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(count), u64(count), u64(directory.length), u64(offset)]);
  const locator = Buffer.concat([u32(0x07064b50), u32(0), u64(offset + directory.length), u32(1)]);
  const end = Buffer.concat([u32(0x06054b50), u16(0xffff), u16(0xffff), u16(0xffff), u16(0xffff), u32(0xffffffff), u32(0xffffffff), u16(0)]);
  return Buffer.concat([...parts, directory, record, locator, end]);
}

describe('findEntry and openEntry', () => {
  const binary = randomBytes(4096);
  const text = Buffer.from('line\n'.repeat(2000));
  const archive = zipSync({
    'out/nested/deep/report.txt': text,
    'out/bin/data.bin': [binary, { level: 0 }],
    'out/empty/': new Uint8Array(0),
    'empty.txt': new Uint8Array(0),
    'ünïcode name.txt': Buffer.from('unicode\n'),
  });

  it('serves deflated and stored entries byte for byte, unicode names, empty files; not directories nor missing names', async () => {
    // Prepare
    const source = bufferSource(archive);

    // Act / Assess
    const deflated = await findEntry(source, 'out/nested/deep/report.txt');
    expect(deflated).toMatchObject({ method: 8, uncompressedSize: text.length });
    expect((await contentOf(source, 'out/nested/deep/report.txt'))!.equals(text)).toBe(true);
    expect(await findEntry(source, 'out/bin/data.bin')).toMatchObject({ method: 0, compressedSize: 4096 });
    expect((await contentOf(source, 'out/bin/data.bin'))!.equals(binary)).toBe(true);
    expect((await contentOf(source, 'empty.txt'))!.length).toBe(0);
    expect((await contentOf(source, 'ünïcode name.txt'))!.toString()).toBe('unicode\n');
    for (const absent of ['out/empty/', 'out/empty', 'out', 'missing.txt', 'report.txt', '/empty.txt', '']) expect(await findEntry(source, absent)).toBeUndefined();
  });

  it('matches a name stored with a leading ./, and an archive with data prepended', async () => {
    const dotted = bufferSource(zipSync({ './dist/app.js': Buffer.from('x()') }));
    expect((await contentOf(dotted, 'dist/app.js'))!.toString()).toBe('x()');

    const prefixed = bufferSource(Buffer.concat([Buffer.alloc(777, 7), Buffer.from(archive)]));
    expect((await contentOf(prefixed, 'out/bin/data.bin'))!.equals(binary)).toBe(true);
  });

  it('reads a small entry of a large archive with a few ranged reads, never the archive whole', async () => {
    // Prepare: 8 MB of incompressible data stored before and after the entry, and many entries.
    const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = { 'a/big-1.bin': [randomBytes(4_000_000), { level: 0 }] };
    for (let i = 0; i < 3000; i++) files[`many/file-${i}.txt`] = Buffer.from(`file ${i}\n`);
    files['wanted/small.txt'] = Buffer.from('small\n');
    files['z/big-2.bin'] = [randomBytes(4_000_000), { level: 0 }];
    const source = bufferSource(zipSync(files));

    // Act
    const content = await contentOf(source, 'wanted/small.txt');

    // Assess: the tail, the rest of the directory, the entry (with at most its header's slack).
    expect(content!.toString()).toBe('small\n');
    expect(source.reads).toBeLessThanOrEqual(3);
    expect(source.bytesRead).toBeLessThan(400_000);
  });

  it('reads zip64 archives (sizes and offsets in the zip64 extra field and end record)', async () => {
    const data = randomBytes(3000);
    const source = bufferSource(zip64Of({ 'first.txt': Buffer.from('one\n'), 'dir/second.bin': data }));
    expect(await findEntry(source, 'dir/second.bin')).toMatchObject({ method: 0, compressedSize: 3000, uncompressedSize: 3000 });
    expect((await contentOf(source, 'dir/second.bin'))!.equals(data)).toBe(true);
    expect((await contentOf(source, 'first.txt'))!.toString()).toBe('one\n');
  });

  it('refuses what is no zip, and ends the stream with an error when the content fails its CRC-32', async () => {
    await expect(findEntry(bufferSource(Buffer.from('not a zip archive at all, just some text')), 'a')).rejects.toBeInstanceOf(ZipFormatError);
    await expect(findEntry(bufferSource(Buffer.alloc(3)), 'a')).rejects.toBeInstanceOf(ZipFormatError);

    const damaged = Buffer.from(zipSync({ 'a.bin': [Buffer.from('abcdefgh'), { level: 0 }] }));
    damaged[damaged.indexOf('abcdefgh')] = 0x7a;
    await expect(contentOf(bufferSource(damaged), 'a.bin')).rejects.toThrow(/CRC-32/);
  });

  it('refuses encrypted entries and compression methods other than stored and deflate', async () => {
    const source = bufferSource(archive);
    const entry = (await findEntry(source, 'empty.txt'))!;
    await expect(openEntry(source, { ...entry, flags: entry.flags | 1 })).rejects.toBeInstanceOf(UnsupportedZipError);
    await expect(openEntry(source, { ...entry, method: 12 })).rejects.toBeInstanceOf(UnsupportedZipError);
  });
});
