/**
 * Whether a pack is self-contained (git's "self-contained and connected"): every object its
 * objects refer to — a commit's tree and parents, a tree's trees and blobs (not a submodule's
 * commit), a tag's object — is in it. Everything reachable from an object of such a pack is then
 * in it, which a push's connectivity check need not walk to know. The ids are gathered as the
 * indexer resolves the objects ({@link add} from `indexPack`'s `onObject`); an object this cannot
 * read (a body of another layout) makes it answer no, and the walk judges. A whole history refers
 * to several times as many ids as it has objects (every tree entry): they are kept as their 20
 * bytes in one buffer and looked up in a hash table of the pack's ids, with no string or object
 * per id.
 *
 * @example
 * const check = new SelfContainedCheck();
 * const indexed = await indexPack(pack, { readExternal, onObject: (oid, type, body) => check.add(type, body) });
 * check.allIn(indexed.objects.map(({ oid }) => oid));
 */
import { parseTag } from '../objects/parse';
import type { ObjectType } from '../objects/types';

const OID_BYTES = 20;

export class SelfContainedCheck {
  /** The ids referred to, 20 bytes each (repeated as often as referred to). */
  private ids = Buffer.alloc(0);
  private idBytes = 0;
  private objects = 0;
  private unreadable = false;

  /** One object of the pack, resolved. */
  add(type: ObjectType, body: Buffer): void {
    this.objects++;
    if (this.unreadable || type === 'blob') return;
    try {
      if (type === 'commit') this.commit(body);
      else if (type === 'tree') this.tree(body);
      else this.refer(checkedOid(parseTag(body).object));
    } catch {
      this.unreadable = true;
    }
  }

  /** Whether every id referred to is one of `ids`, which are all the objects of the pack (every one of which was added). */
  allIn(ids: readonly string[]): boolean {
    // A thin pack's appended bases were not resolved through the indexer's callback.
    if (this.unreadable || this.objects !== ids.length) return false;
    const present = new IdSet(ids);
    for (let at = 0; at < this.idBytes; at += OID_BYTES) if (!present.has(this.ids, at)) return false;
    return true;
  }

  /** `tree <id>` first, then one `parent <id>` line per parent, as git writes commits. */
  private commit(body: Buffer): void {
    if (!startsWith(body, 0, TREE) || body[45] !== 0x0a) throw new Error('unexpected commit layout');
    this.referHex(body, 5);
    for (let at = 46; startsWith(body, at, PARENT); at += 48) {
      if (body[at + 47] !== 0x0a) throw new Error('unexpected commit layout');
      this.referHex(body, at + 7);
    }
  }

  /**
   * Entries `<octal mode> <name>\0<20-byte id>`; a submodule's commit (mode 160000) is not
   * referred to. Checked as `parseTreeLinks` (git/walk.ts) checks them.
   */
  private tree(body: Buffer): void {
    const length = body.length;
    let offset = 0;
    while (offset < length) {
      let mode = 0;
      let at = offset;
      for (; at < length && body[at] !== 0x20; at++) {
        const digit = body[at] - 0x30;
        if (digit < 0 || digit > 7) throw new Error(`bad tree entry at byte ${offset}`);
        mode = mode * 8 + digit;
      }
      if (at === offset || at >= length) throw new Error(`truncated tree entry at byte ${offset}`);
      let nul = at + 1;
      while (nul < length && body[nul] !== 0) nul++;
      if (nul + 21 > length || nul === at + 1) throw new Error(`bad tree entry at byte ${offset}`);
      if ((mode & 0o170000) !== 0o160000) {
        this.room();
        body.copy(this.ids, this.idBytes, nul + 1, nul + 21);
        this.idBytes += OID_BYTES;
      }
      offset = nul + 21;
    }
  }

  private refer(oid: string): void {
    this.room();
    this.ids.write(oid, this.idBytes, 'hex');
    this.idBytes += OID_BYTES;
  }

  /** Refers to the id written as 40 lower-case hex digits at `body[at]`. */
  private referHex(body: Buffer, at: number): void {
    this.room();
    for (let i = 0; i < OID_BYTES; i++) {
      const high = hexDigit(body[at + 2 * i]);
      const low = hexDigit(body[at + 2 * i + 1]);
      if (high < 0 || low < 0) throw new Error(`not an object id: ${body.toString('latin1', at, at + 40)}`);
      this.ids[this.idBytes + i] = (high << 4) | low;
    }
    this.idBytes += OID_BYTES;
  }

  /** Room for one more id. */
  private room(): void {
    if (this.idBytes + OID_BYTES <= this.ids.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.ids.length, 64 * 1024));
    this.ids.copy(grown, 0, 0, this.idBytes);
    this.ids = grown;
  }
}

/**
 * A set of object ids as bytes: open addressing over a table twice as large as the set, by the
 * first four bytes of the id (SHA-1 spreads them evenly). No string or object per id.
 */
class IdSet {
  private readonly names: Buffer;
  /** Per slot: an entry of {@link names}, or -1. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(ids: readonly string[]) {
    this.names = Buffer.allocUnsafe(ids.length * OID_BYTES);
    let size = 16;
    while (size < 2 * ids.length) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    ids.forEach((oid, i) => {
      // An id of another form cannot be referred to (every id added is checked): left out.
      if (oid.length !== 2 * OID_BYTES || this.names.write(oid, i * OID_BYTES, 'hex') !== OID_BYTES) return;
      let slot = this.names.readUInt32BE(i * OID_BYTES) & this.mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = i;
    });
  }

  /** Whether the id at `bytes[at .. at + 20]` is in the set. */
  has(bytes: Buffer, at: number): boolean {
    const { names, slots, mask } = this;
    for (let slot = bytes.readUInt32BE(at) & mask; slots[slot] >= 0; slot = (slot + 1) & mask) {
      const start = slots[slot] * OID_BYTES;
      let i = 0;
      while (i < OID_BYTES && names[start + i] === bytes[at + i]) i++;
      if (i === OID_BYTES) return true;
    }
    return false;
  }
}

const OID = /^[0-9a-f]{40}$/;
const TREE = Buffer.from('tree ', 'latin1');
const PARENT = Buffer.from('parent ', 'latin1');

function startsWith(body: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > body.length) return false;
  for (let i = 0; i < prefix.length; i++) if (body[at + i] !== prefix[i]) return false;
  return true;
}

/** The value of a lower-case hex digit's code, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

function checkedOid(value: string): string {
  if (!OID.test(value)) throw new Error(`not an object id: ${value}`);
  return value;
}
