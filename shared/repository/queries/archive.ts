/**
 * Repository archives as GitLab sends them (`git archive` behind Workhorse): a tar (gzipped for
 * `tar.gz`, `tgz`, `gz`) or a zip of a commit's tree, or of one directory of it, every path under
 * a prefix directory `<project>-<ref>-<sha>[-<path>]/`, as `git archive --prefix` writes them:
 * tar entries with a pax global header holding the commit id, modes 0775/0664 (git's default
 * `tar.umask`), the commit's time, owner `root`; zip entries deflated, the commit id as comment.
 */
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { entryAtPath, pathSegments } from '../git/walk';
import { isTreeEntry, type CommitObject, type ObjectReader } from './objects';

export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip';

/** The format a requested extension stands for (`tgz` and `gz` are gzipped tars, as GitLab's `archive_file_path`). */
export const archiveFormatOf = (extension: string | undefined): ArchiveFormat => (extension === 'tar' ? 'tar' : extension === 'zip' ? 'zip' : 'tar.gz');

interface ArchiveEntry {
  path: string;
  kind: 'directory' | 'file' | 'symlink';
  executable: boolean;
  content: Buffer;
}

/** Internal: every entry under a tree, directories before their contents, in tree order. */
async function collect(reader: ObjectReader, tree: string, prefix: string, out: ArchiveEntry[]): Promise<void> {
  for (const entry of (await reader.tree(tree)) ?? []) {
    const path = `${prefix}${entry.path}`;
    if (isTreeEntry(entry)) {
      out.push({ path: `${path}/`, kind: 'directory', executable: false, content: Buffer.alloc(0) });
      await collect(reader, entry.oid, `${path}/`, out);
    } else if (entry.mode === '160000') {
      // A submodule: git archive writes an empty directory.
      out.push({ path: `${path}/`, kind: 'directory', executable: false, content: Buffer.alloc(0) });
    } else {
      const content = (await reader.blob(entry.oid)) ?? Buffer.alloc(0);
      out.push({ path, kind: entry.mode === '120000' ? 'symlink' : 'file', executable: entry.mode === '100755', content });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// tar
// ---------------------------------------------------------------------------------------------

const BLOCK = 512;
const RECORD = 10240;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A pax record: `<length> <key>=<value>\n`, the length counting itself. */
function paxRecord(key: string, value: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.concat([Buffer.from(String(length)), body]);
}

function tarHeader(fields: { name: Buffer; mode: number; size: number; mtime: number; type: string; linkname?: Buffer }): Buffer {
  const header = Buffer.alloc(BLOCK);
  fields.name.copy(header, 0, 0, Math.min(100, fields.name.length));
  header.write(octal(fields.mode, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  header.write(octal(fields.size, 12), 124, 'latin1');
  header.write(octal(fields.mtime, 12), 136, 'latin1');
  header.write(fields.type, 156, 'latin1');
  fields.linkname?.copy(header, 157, 0, Math.min(100, fields.linkname.length));
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  header.write('root', 265, 'latin1');
  header.write('root', 297, 'latin1');
  header.write(octal(0, 8), 329, 'latin1');
  header.write(octal(0, 8), 337, 'latin1');
  // The checksum counts its own field as spaces.
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

const padded = (data: Buffer) => (data.length % BLOCK === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - (data.length % BLOCK))]));

function tar(entries: ArchiveEntry[], commit: CommitObject): Buffer {
  const mtime = commit.committer.timestamp;
  const parts: Buffer[] = [];
  const comment = paxRecord('comment', Buffer.from(commit.id));
  parts.push(tarHeader({ name: Buffer.from('pax_global_header'), mode: 0o666, size: comment.length, mtime, type: 'g' }), padded(comment));
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8');
    const link = entry.kind === 'symlink' ? entry.content : undefined;
    const extended: Buffer[] = [];
    if (name.length > 100) extended.push(paxRecord('path', name));
    if (link && link.length > 100) extended.push(paxRecord('linkpath', link));
    if (extended.length > 0) {
      const data = Buffer.concat(extended);
      parts.push(tarHeader({ name: Buffer.from(`${commit.id}.paxheader`), mode: 0o666, size: data.length, mtime, type: 'x' }), padded(data));
    }
    const mode = entry.kind === 'directory' || entry.executable ? 0o775 : entry.kind === 'symlink' ? 0o777 : 0o664;
    const type = entry.kind === 'directory' ? '5' : entry.kind === 'symlink' ? '2' : '0';
    const size = entry.kind === 'file' ? entry.content.length : 0;
    parts.push(tarHeader({ name, mode, size, mtime, type, linkname: link }));
    if (size > 0) parts.push(padded(entry.content));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const body = Buffer.concat(parts);
  return body.length % RECORD === 0 ? body : Buffer.concat([body, Buffer.alloc(RECORD - (body.length % RECORD))]);
}

// ---------------------------------------------------------------------------------------------
// zip
// ---------------------------------------------------------------------------------------------

/** MS-DOS date and time of a moment (UTC). */
function dosTime(seconds: number): { time: number; date: number } {
  const d = new Date(seconds * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

function zip(entries: ArchiveEntry[], commit: CommitObject): Buffer {
  const { time, date } = dosTime(commit.committer.timestamp);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8');
    const deflate = entry.kind === 'file' && entry.content.length > 0;
    const data = deflate ? deflateRawSync(entry.content) : entry.content;
    const crc = crc32(entry.content);
    const mode = entry.kind === 'directory' ? 0o040775 : entry.kind === 'symlink' ? 0o120777 : entry.executable ? 0o100775 : 0o100664;
    // The fields both headers hold, in the same order: version needed, flags, method, time, date, CRC, sizes, name length.
    const entryFields = (header: Buffer, at: number) => {
      header.writeUInt16LE(10, at);
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(deflate ? 8 : 0, at + 4);
      header.writeUInt16LE(time, at + 6);
      header.writeUInt16LE(date, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(data.length, at + 14);
      header.writeUInt32LE(entry.content.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    entryFields(local, 4);
    locals.push(local, name, data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 10, 4); // made by unix
    entryFields(header, 6);
    header.writeUInt32LE(((mode << 16) | (entry.kind === 'directory' ? 0x10 : 0)) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const comment = Buffer.from(commit.id);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, directory, end, comment]);
}

/**
 * The archive of a commit (of one directory of it when `path` is given), or `undefined` when the
 * path names no directory or file there.
 */
export async function buildArchive(reader: ObjectReader, commit: CommitObject, prefix: string, format: ArchiveFormat, path?: string): Promise<Buffer | undefined> {
  // As `git archive --prefix`: the prefix directory first.
  const entries: ArchiveEntry[] = [{ path: `${prefix}/`, kind: 'directory', executable: false, content: Buffer.alloc(0) }];
  const segments = pathSegments(path ?? '');
  if (segments.length === 0) {
    await collect(reader, commit.tree, `${prefix}/`, entries);
  } else {
    const entry = await entryAtPath(reader, commit.tree, segments);
    if (!entry) return undefined;
    // As `git archive <commit> <path>`: the directories leading to it, then it.
    const parents = segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).map(String).join('/'));
    for (const parent of parents) entries.push({ path: `${prefix}/${parent}/`, kind: 'directory', executable: false, content: Buffer.alloc(0) });
    const full = `${prefix}/${segments.map(String).join('/')}`;
    if (isTreeEntry(entry)) {
      entries.push({ path: `${full}/`, kind: 'directory', executable: false, content: Buffer.alloc(0) });
      await collect(reader, entry.oid, `${full}/`, entries);
    } else {
      entries.push({ path: full, kind: entry.mode === '120000' ? 'symlink' : 'file', executable: entry.mode === '100755', content: (await reader.blob(entry.oid)) ?? Buffer.alloc(0) });
    }
  }
  if (format === 'zip') return zip(entries, commit);
  const archive = tar(entries, commit);
  return format === 'tar' ? archive : gzipSync(archive);
}

/** GitLab's `archive_prefix`: `<project path>-<ref with / as ->-<sha>[-<path with / as ->]`. */
export function archivePrefix(projectPath: string, ref: string, sha: string, path?: string): string {
  const segments = [projectPath, ref.replace(/\//g, '-'), sha];
  const trimmed = path?.replace(/^\/|\/$/g, '');
  if (trimmed) segments.push(trimmed.replace(/\//g, '-'));
  return segments.join('-');
}
