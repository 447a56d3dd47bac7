/**
 * Whether a pack is self-contained (git's "self-contained and connected"): every object its
 * objects refer to — a commit's tree and parents, a tree's trees and blobs (not a submodule's
 * commit), a tag's object — is in it. Everything reachable from an object of such a pack is then
 * in it, which a push's connectivity check need not walk to know. The ids are gathered as the
 * indexer resolves the objects ({@link add} from `indexPack`'s `onObject`); an object this cannot
 * read (a body of another layout) makes it answer no, and the walk judges.
 *
 * @example
 * const check = new SelfContainedCheck();
 * const indexed = await indexPack(pack, { readExternal, onObject: (oid, type, body) => check.add(type, body) });
 * check.allIn(indexed.objects.map(({ oid }) => oid));
 */
import { parseTag } from '../objects/parse';
import type { ObjectType } from '../objects/types';
import { parseTreeLinks } from '../walk';

export class SelfContainedCheck {
  /** The ids referred to (repeated as often as referred to). */
  private readonly ids: string[] = [];
  private objects = 0;
  private unreadable = false;

  /** One object of the pack, resolved. */
  add(type: ObjectType, body: Buffer): void {
    this.objects++;
    if (this.unreadable || type === 'blob') return;
    try {
      if (type === 'commit') {
        this.commit(body);
      } else if (type === 'tree') {
        for (const { oid, kind } of parseTreeLinks(body)) {
          if (kind !== 'commit') this.ids.push(oid);
        }
      } else {
        this.ids.push(parseTag(body).object);
      }
    } catch {
      this.unreadable = true;
    }
  }

  /** Whether every id referred to is one of `ids`, which are all the objects of the pack (every one of which was added). */
  allIn(ids: readonly string[]): boolean {
    // A thin pack's appended bases were not resolved through the indexer's callback.
    if (this.unreadable || this.objects !== ids.length) return false;
    const present = new Set(ids);
    return this.ids.every((oid) => present.has(oid));
  }

  /** `tree <id>` first, then one `parent <id>` line per parent, as git writes commits. */
  private commit(body: Buffer): void {
    if (body.toString('latin1', 0, 5) !== 'tree ' || body[45] !== 0x0a) throw new Error('unexpected commit layout');
    this.ids.push(checkedOid(body.toString('latin1', 5, 45)));
    for (let at = 46; body.toString('latin1', at, at + 7) === 'parent '; at += 48) {
      if (body[at + 47] !== 0x0a) throw new Error('unexpected commit layout');
      this.ids.push(checkedOid(body.toString('latin1', at + 7, at + 47)));
    }
  }
}

const OID = /^[0-9a-f]{40}$/;

function checkedOid(value: string): string {
  if (!OID.test(value)) throw new Error(`not an object id: ${value}`);
  return value;
}
