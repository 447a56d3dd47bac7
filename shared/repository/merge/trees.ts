/**
 * A three-way merge of two commits' trees from their merge base, as git's merge (ort, what
 * Gitaly's `UserMergeBranch` runs through `git merge-tree --write-tree`) decides it, without a
 * work tree or an index: entries are compared by id and mode, so only subtrees that differ on both
 * sides are read.
 *
 * Per path: what both sides agree on stays; what one side changed from the base is taken; what
 * both changed differently is merged when both are regular files (the modes three-way, the
 * contents line by line, `lines.ts`), and is a conflict otherwise:
 * - add/add of different contents or modes, modify/delete (either way);
 * - binary contents (a NUL in the first 8000 bytes, as git's `buffer_is_binary`) changed on both
 *   sides; symlinks and submodules changed differently on both sides; a file that became a symlink
 *   or a submodule on one side and changed on the other (distinct types);
 * - a file on one side where the other has a directory (file/directory), when both changed it.
 * A path holds a file part and a directory part, merged apart (so a file replaced by a directory on
 * one side and left alone on the other merges, as in git); a path that ends up with both is the
 * file/directory conflict. Directories left empty disappear, as git has no empty trees.
 *
 * Renames are not followed (git's ort detects them): a file renamed on one side and changed on the
 * other is a modify/delete conflict here, never a wrong merge.
 *
 * Several merge bases (criss-cross histories) are merged first into a virtual base, as ort does
 * (oldest first, each pair from their own merge base); when the bases themselves conflict, where
 * git would write conflict markers into the virtual base, the newest base is used instead.
 */
import { entryKind, parseCommitLinks, parseTree, serializeTree, type TreeEntry, type TreeEntryInput } from '../git/objects/parse';
import { hashObject, type GitObject } from '../git/objects/types';
import { MissingObjectError, mergeBases, type ObjectReader } from '../git/walk';
import { isBinary } from '../queries/diff';
import { mergeLines } from './lines';

/** Thrown to stop a merge at its first conflict (a mergeability check needs no more). */
class Conflicted extends Error {}

/** The merged tree and the new objects it needs (blobs and trees not in the repository), or the conflicting paths. */
export type TreeMergeResult = { tree: string; objects: GitObject[] } | { conflicts: string[] };

export interface TreeMergeOptions {
  /** Stop at the first conflict (the result then lists just that path). */
  stopAtFirstConflict?: boolean;
}

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;

/** What a file entry is, for the "distinct types" test. */
function fileType(mode: string): 'regular' | 'symlink' | 'submodule' {
  const type = parseInt(mode, 8) & 0o170000;
  if (type === 0o120000) return 'symlink';
  return type === 0o160000 ? 'submodule' : 'regular';
}

/** One name of a directory on the three sides, its file part and its directory part apart. */
interface Slot {
  name: Buffer;
  file: [TreeEntry | undefined, TreeEntry | undefined, TreeEntry | undefined];
  dir: [string | null, string | null, string | null];
}

/** One merge: the objects it made (read back through it), the conflicts it met. */
class TreeMerger {
  readonly made = new Map<string, GitObject>();
  readonly conflicts: string[] = [];

  constructor(
    private readonly source: ObjectReader,
    private readonly options: TreeMergeOptions,
  ) {}

  readonly read: ObjectReader = async (oid) => this.made.get(oid) ?? this.source(oid);

  private async entries(oid: string | null): Promise<TreeEntry[]> {
    if (oid === null) return [];
    const object = await this.read(oid);
    if (!object) throw new MissingObjectError(oid);
    return parseTree(object.body);
  }

  private async blob(oid: string): Promise<Buffer> {
    const object = await this.read(oid);
    if (!object) throw new MissingObjectError(oid);
    return object.body;
  }

  private store(type: GitObject['type'], body: Buffer): string {
    const oid = hashObject(type, body);
    this.made.set(oid, { type, body });
    return oid;
  }

  private conflict(path: string): undefined {
    this.conflicts.push(path);
    if (this.options.stopAtFirstConflict) throw new Conflicted(path);
    return undefined;
  }

  /** Merges three trees (null: none there); answers the merged tree, null when it is empty. */
  async directory(base: string | null, ours: string | null, theirs: string | null, prefix: string): Promise<string | null> {
    if (ours === theirs || base === theirs) return ours;
    if (base === ours) return theirs;
    const slots = new Map<string, Slot>();
    const sides = await Promise.all([this.entries(base), this.entries(ours), this.entries(theirs)]);
    sides.forEach((entries, side) => {
      for (const entry of entries) {
        const key = entry.name.toString('latin1');
        let slot = slots.get(key);
        if (!slot) slots.set(key, (slot = { name: entry.name, file: [undefined, undefined, undefined], dir: [null, null, null] }));
        if (entryKind(entry.mode) === 'tree') slot.dir[side] = entry.oid;
        else slot.file[side] = entry;
      }
    });
    const merged: TreeEntryInput[] = [];
    for (const slot of slots.values()) {
      const path = `${prefix}${slot.name.toString('utf8')}`;
      const [b, o, t] = slot.dir;
      const dir = b === null && o === null && t === null ? null : await this.directory(b, o, t, `${path}/`);
      const file = await this.file(...slot.file, path);
      if (dir !== null && file) this.conflict(path);
      else if (dir !== null) merged.push({ mode: '40000', name: slot.name, oid: dir });
      else if (file) merged.push({ mode: file.mode, name: slot.name, oid: file.oid });
    }
    return merged.length === 0 ? null : this.store('tree', serializeTree(merged));
  }

  /** Merges the file parts of one path; undefined when there is no file (or it conflicts). */
  private async file(base: TreeEntry | undefined, ours: TreeEntry | undefined, theirs: TreeEntry | undefined, path: string): Promise<{ mode: string; oid: string } | undefined> {
    if (same(ours, theirs) || same(base, theirs)) return ours;
    if (same(base, ours)) return theirs;
    // Both changed it, differently.
    if (!ours || !theirs) return this.conflict(path); // modify/delete
    const type = fileType(ours.mode);
    if (type !== fileType(theirs.mode) || type !== 'regular') return this.conflict(path);
    let mode: string;
    if (ours.mode === theirs.mode || base?.mode === ours.mode) mode = theirs.mode;
    else if (base?.mode === theirs.mode) mode = ours.mode;
    else return this.conflict(path);
    if (ours.oid === theirs.oid || base?.oid === ours.oid) return { mode, oid: theirs.oid };
    if (base?.oid === theirs.oid) return { mode, oid: ours.oid };
    // add/add of different contents: merged from an empty base, both sides' lines conflict.
    if (!base) return this.conflict(path);
    const [a, x, y] = await Promise.all([this.blob(base.oid), this.blob(ours.oid), this.blob(theirs.oid)]);
    if (isBinary(a) || isBinary(x) || isBinary(y)) return this.conflict(path);
    const content = mergeLines(a, x, y);
    if (!content) return this.conflict(path);
    return { mode, oid: this.store('blob', content) };
  }
}

/**
 * Merges `ours` and `theirs` (trees) from `base` (a tree, null for none: unrelated histories).
 *
 * @example
 * const result = await mergeTrees(read, baseTree, oursTree, theirsTree);
 * if ('conflicts' in result) console.log(result.conflicts); // ['src/app.ts']
 */
export async function mergeTrees(read: ObjectReader, base: string | null, ours: string, theirs: string, options: TreeMergeOptions = {}): Promise<TreeMergeResult> {
  const merger = new TreeMerger(read, options);
  let tree: string | null;
  try {
    tree = await merger.directory(base, ours, theirs, '');
  } catch (error) {
    if (!(error instanceof Conflicted)) throw error;
    return { conflicts: merger.conflicts };
  }
  if (merger.conflicts.length > 0) return { conflicts: [...new Set(merger.conflicts)].sort() };
  const emptyTree = serializeTree([]);
  const oid = tree ?? hashObject('tree', emptyTree);
  if (tree === null) merger.made.set(oid, { type: 'tree', body: emptyTree });
  // Only what the merged tree can reach is new: objects made for subtrees that were then dropped are not kept.
  return { tree: oid, objects: reachableMade(merger.made, oid) };
}

/** The objects of `made` reachable from `root` through `made` alone. */
function reachableMade(made: Map<string, GitObject>, root: string): GitObject[] {
  const out: GitObject[] = [];
  const seen = new Set<string>();
  const stack = [root];
  for (let oid = stack.pop(); oid !== undefined; oid = stack.pop()) {
    const object = made.get(oid);
    if (!object || seen.has(oid)) continue;
    seen.add(oid);
    out.push(object);
    if (object.type === 'tree') for (const entry of parseTree(object.body)) stack.push(entry.oid);
  }
  return out;
}

async function treeOf(read: ObjectReader, commit: string): Promise<string> {
  const object = await read(commit);
  if (!object) throw new MissingObjectError(commit);
  return parseCommitLinks(object.body).tree;
}

/** How deep virtual bases nest before the newest real base is taken instead. */
const MAX_VIRTUAL_DEPTH = 8;

/**
 * The tree to merge two commits from: their merge base's, a virtual base merged from several
 * (see the module comment), or null when they share no history. Objects of a virtual base are
 * kept in `virtual` so that the merge can read them; they are never stored.
 */
export async function mergeBaseTree(read: ObjectReader, ours: string, theirs: string, virtual: Map<string, GitObject>, depth = 0): Promise<string | null> {
  const bases = await mergeBases(read, ours, theirs);
  if (bases.length === 0) return null;
  if (bases.length === 1 || depth >= MAX_VIRTUAL_DEPTH) return treeOf(read, bases[0]);
  // Oldest first, as ort merges them.
  const [first, ...rest] = [...bases].reverse();
  let tree = await treeOf(read, first);
  let previous = first;
  for (const next of rest) {
    const inner = await mergeBaseTree(read, previous, next, virtual, depth + 1);
    const merged = await mergeTrees((oid) => Promise.resolve(virtual.get(oid)).then((object) => object ?? read(oid)), inner, tree, await treeOf(read, next));
    if ('conflicts' in merged) return treeOf(read, bases[0]);
    for (const object of merged.objects) virtual.set(hashObject(object.type, object.body), object);
    tree = merged.tree;
    previous = next;
  }
  return tree;
}
