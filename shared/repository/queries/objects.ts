/**
 * Reading a repository's objects for the API: commits, trees, blobs and tags, parsed once per
 * request (a request reads the same commits and trees many times while it walks history or paths),
 * and ref names resolved to objects as git resolves revisions.
 *
 * Every read goes through the repository's packs (`Repository.read`); nothing here writes.
 */
import { entryKind, parseCommit, parseCommitLinks, parseTag, parseTree, type Commit, type CommitLinks, type Tag, type TreeEntry } from '../git/objects/parse';
import type { GitObject } from '../git/objects/types';
import { isAncestor, ObjectGraph, type ObjectReader as ReadObject } from '../git/walk';
import type { Repository } from '../repository';

export type { Commit, Signature, Tag, TreeEntry } from '../git/objects/parse';

/** A commit with its id. */
export interface CommitObject extends Commit {
  id: string;
}

/** Git's file modes as numbers. */
export const MODE = { tree: 0o040000, file: 0o100644, executable: 0o100755, symlink: 0o120000, submodule: 0o160000 } as const;

export const modeOf = (entry: { mode: string }): number => parseInt(entry.mode, 8);
export const isTreeEntry = (entry: { mode: string }): boolean => entryKind(entry.mode) === 'tree';

/** An object's id is 40 lower-case hex digits; clients may send upper case. */
export const FULL_OID = /^[0-9a-fA-F]{40}$/;

/**
 * The objects of one repository as one request sees them: commits, trees and tags read at most
 * once (through {@link ObjectReader.read}, which the walks of `git/walk.ts` share), commits and
 * trees parsed at most once; blobs are read when asked and not kept. A Lambda invocation serves
 * one request.
 */
export class ObjectReader {
  private readonly commits = new Map<string, CommitObject | null>();
  private readonly trees = new Map<string, TreeEntry[] | null>();
  private readonly graph: ObjectGraph;

  constructor(readonly repository: Repository) {
    this.graph = new ObjectGraph((oid) => repository.read(oid));
  }

  /** Reads an object once per request (ids in any case; `undefined` for no such object): what walks are given. */
  readonly read: ReadObject = async (oid) => (FULL_OID.test(oid) ? this.graph.read(oid.toLowerCase()) : undefined);

  /** The raw object, or `undefined` when the pool has no such object (read again each time: blobs are not kept). */
  async object(oid: string): Promise<GitObject | undefined> {
    if (!FULL_OID.test(oid)) return undefined;
    return this.repository.read(oid.toLowerCase());
  }

  /** A commit, or `undefined` when `oid` names no commit. */
  async commit(oid: string): Promise<CommitObject | undefined> {
    const id = oid.toLowerCase();
    if (!this.commits.has(id)) {
      const object = await this.read(id);
      this.commits.set(id, object?.type === 'commit' ? { id, ...parseCommit(object.body) } : null);
    }
    return this.commits.get(id) ?? undefined;
  }

  /** What walking history needs of a commit (parents, tree, committer time), cheaper than {@link commit}. */
  async commitLinks(oid: string): Promise<CommitLinks | undefined> {
    const object = await this.read(oid);
    return object?.type === 'commit' ? parseCommitLinks(object.body) : undefined;
  }

  /** A tree's entries, or `undefined` when `oid` names no tree. */
  async tree(oid: string): Promise<TreeEntry[] | undefined> {
    const id = oid.toLowerCase();
    if (!this.trees.has(id)) {
      const object = await this.read(id);
      this.trees.set(id, object?.type === 'tree' ? parseTree(object.body) : null);
    }
    return this.trees.get(id) ?? undefined;
  }

  /** A blob's bytes, or `undefined` when `oid` names no blob. */
  async blob(oid: string): Promise<Buffer | undefined> {
    const object = await this.object(oid);
    return object?.type === 'blob' ? object.body : undefined;
  }

  /** An annotated tag, or `undefined` when `oid` names no tag object. */
  async tag(oid: string): Promise<Tag | undefined> {
    const object = await this.read(oid);
    return object?.type === 'tag' ? parseTag(object.body) : undefined;
  }

  /** Follows annotated tags (`^{}`) to the object they finally point at. */
  async peel(oid: string): Promise<{ id: string; type: GitObject['type'] } | undefined> {
    const peeled = FULL_OID.test(oid) ? await this.graph.peel(oid.toLowerCase()) : undefined;
    return peeled && { id: peeled.oid, type: peeled.type };
  }

  /** The commit an object id leads to through annotated tags (`^{commit}`), if any. */
  async peelToCommit(oid: string): Promise<CommitObject | undefined> {
    const peeled = await this.peel(oid);
    return peeled?.type === 'commit' ? this.commit(peeled.id) : undefined;
  }

  /** Whether `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`); false when either names no commit. */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    if (ancestor === descendant) return true;
    if (!(await this.commitLinks(ancestor)) || !(await this.commitLinks(descendant))) return false;
    return isAncestor(this.read, ancestor, descendant);
  }

  /**
   * Every object id starting with `prefix` (4 to 39 lower-case hex digits), found by binary
   * search in each pack's index; used for abbreviated ids. At most `limit` ids are returned.
   */
  async idsStartingWith(prefix: string, limit = 2): Promise<string[]> {
    const found = new Set<string>();
    for (const pack of (await this.repository.packSet()).packs) {
      const index = pack.index;
      let low = 0;
      let high = index.count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (index.oidAt(middle) < prefix) low = middle + 1;
        else high = middle;
      }
      for (let position = low; position < index.count && found.size < limit; position++) {
        const oid = index.oidAt(position);
        if (!oid.startsWith(prefix)) break;
        found.add(oid);
      }
      if (found.size >= limit) break;
    }
    return [...found];
  }
}
