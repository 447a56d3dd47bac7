/**
 * The objects of a repository: several packs, plus optional loose objects not yet in any pack.
 * An object is looked up in the packs in their order, then among the loose objects; a REF_DELTA
 * whose base another pack holds is resolved through the set.
 */
import { type GitObject } from '../objects/types';
import { type PackFile } from './pack-file';

/** Where an object is stored in a pack. */
export interface PackLocation {
  pack: PackFile;
  offset: number;
}

export class PackSet {
  constructor(
    readonly packs: readonly PackFile[],
    private readonly loose: ReadonlyMap<string, GitObject> = new Map(),
  ) {}

  has(oid: string): boolean {
    return this.locate(oid) !== undefined || this.loose.has(oid);
  }

  /** The first pack holding an object, and the object's offset in it. */
  locate(oid: string): PackLocation | undefined {
    for (const pack of this.packs) {
      const offset = pack.offsetOf(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  /** One of the set's loose objects (given apart from the packs). */
  looseObject(oid: string): GitObject | undefined {
    return this.loose.get(oid);
  }

  async read(oid: string): Promise<GitObject | undefined> {
    const location = this.locate(oid);
    if (!location) return this.loose.get(oid);
    return location.pack.readAt(location.offset, (base) => this.read(base));
  }
}
