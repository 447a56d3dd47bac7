/**
 * Reading a repository's objects for the API: commits, trees, blobs and tags, parsed once per
 * request (a request reads the same commits and trees many times while it walks history or paths),
 * and ref names resolved to objects as git resolves revisions.
 *
 * Every read goes through the repository's packs (`Repository.read`); nothing here writes.
 */
import { entryKind, parseCommit, parseCommitLinks, parseTag, parseTree, type Commit, type CommitLinks, type Tag, type TreeEntry } from '../git/objects/parse';
import type { GitObject } from '../git/objects/types';
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
 * The objects of one repository as one request sees them: each object parsed at most once.
 * Parsed commits and trees are kept for the request (a Lambda invocation serves one request).
 */
export class ObjectReader {
  private readonly commits = new Map<string, CommitObject | null>();
  private readonly links = new Map<string, CommitLinks | null>();
  private readonly trees = new Map<string, TreeEntry[] | null>();
  /** Commit bodies read for their links, parsed whole only when asked. */
  private readonly commitBodies = new Map<string, Buffer>();

  constructor(readonly repository: Repository) {}

  /** The raw object, or `undefined` when the pool has no such object. */
  async object(oid: string): Promise<GitObject | undefined> {
    if (!FULL_OID.test(oid)) return undefined;
    return this.repository.read(oid.toLowerCase());
  }

  /** A commit, or `undefined` when `oid` names no commit. */
  async commit(oid: string): Promise<CommitObject | undefined> {
    const id = oid.toLowerCase();
    if (!this.commits.has(id)) {
      const body = this.commitBodies.get(id) ?? (await this.objectOfType(id, 'commit'));
      this.commits.set(id, body ? { id, ...parseCommit(body) } : null);
    }
    return this.commits.get(id) ?? undefined;
  }

  /** What walking history needs of a commit (parents, tree, committer time), cheaper than {@link commit}. */
  async commitLinks(oid: string): Promise<CommitLinks | undefined> {
    const id = oid.toLowerCase();
    const parsed = this.commits.get(id);
    if (parsed) return { tree: parsed.tree, parents: parsed.parents, date: parsed.committer.timestamp };
    if (!this.links.has(id)) {
      const body = await this.objectOfType(id, 'commit');
      if (body) this.commitBodies.set(id, body);
      this.links.set(id, body ? parseCommitLinks(body) : null);
    }
    return this.links.get(id) ?? undefined;
  }

  private async objectOfType(oid: string, type: GitObject['type']): Promise<Buffer | undefined> {
    const object = await this.object(oid);
    return object?.type === type ? object.body : undefined;
  }

  /** A tree's entries, or `undefined` when `oid` names no tree. */
  async tree(oid: string): Promise<TreeEntry[] | undefined> {
    const id = oid.toLowerCase();
    if (!this.trees.has(id)) {
      const object = await this.object(id);
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
    const object = await this.object(oid);
    return object?.type === 'tag' ? parseTag(object.body) : undefined;
  }

  /** Follows annotated tags (`^{}`) to the object they finally point at. */
  async peel(oid: string): Promise<{ id: string; type: GitObject['type'] } | undefined> {
    let id = oid.toLowerCase();
    for (let depth = 0; depth < 10; depth++) {
      const object = await this.object(id);
      if (!object) return undefined;
      if (object.type !== 'tag') return { id, type: object.type };
      id = parseTag(object.body).object;
    }
    return undefined;
  }

  /** The commit an object id leads to through annotated tags (`^{commit}`), if any. */
  async peelToCommit(oid: string): Promise<CommitObject | undefined> {
    const peeled = await this.peel(oid);
    return peeled?.type === 'commit' ? this.commit(peeled.id) : undefined;
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
