/**
 * Editing a tree as GitLab's commit actions do (Gitaly's `UserCommitFiles`): files are created,
 * updated, moved, deleted and have their executable bit changed by path; directories come and go
 * with the files in them. Only the directories on edited paths are read, and only the trees that
 * changed are written back (bottom up, as new tree objects).
 *
 * Failures are Gitaly's index errors, whose messages GitLab shows as they are.
 */
import { serializeTree } from '../git/objects/parse';
import { hashObject, type GitObject } from '../git/objects/types';
import { isTreeEntry, type ObjectReader } from '../queries/objects';

/** A failed edit, with the message GitLab answers (400). */
export class IndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexError';
  }
}

export const INDEX_ERRORS = {
  fileExists: 'A file with this name already exists',
  fileNotFound: "A file with this name doesn't exist",
  directoryExists: 'A directory with this name already exists',
  traversal: 'Path cannot include directory traversal',
  emptyPath: 'You must provide a file path',
  invalidPath: (path: string) => `invalid path: '${path}'`,
} as const;

interface Entry {
  name: Buffer;
  mode: string;
  oid: string;
  /** Loaded when the edit goes into this directory. */
  tree?: Directory;
}

interface Directory {
  entries: Map<string, Entry>;
  /** The id it was read with; undefined once changed (or new). */
  oid?: string;
}

const key = (name: Buffer) => name.toString('latin1');

/**
 * A path as Gitaly takes it (`storage.ValidateRelativePath`): `.` segments and doubled slashes
 * dropped, `..` resolved, anything escaping the root refused; `.git` components and control
 * characters are invalid paths, as git refuses them in trees.
 */
export function normalizePath(path: string): Buffer[] {
  if (path === '') throw new IndexError(INDEX_ERRORS.emptyPath);
  if (path.includes('//')) throw new IndexError(INDEX_ERRORS.invalidPath(path));
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw new IndexError(INDEX_ERRORS.traversal);
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) throw new IndexError(INDEX_ERRORS.emptyPath);
  if (segments.some((segment) => segment.toLowerCase() === '.git' || /[\0]/.test(segment))) throw new IndexError(INDEX_ERRORS.invalidPath(path));
  return segments.map((segment) => Buffer.from(segment, 'utf8'));
}

/** A tree being edited. */
export class TreeEditor {
  private root?: Directory;

  constructor(
    private readonly reader: ObjectReader,
    private readonly baseTree: string | null,
  ) {}

  private async load(oid: string | null): Promise<Directory> {
    const entries = new Map<string, Entry>();
    if (oid) for (const entry of (await this.reader.tree(oid)) ?? []) entries.set(key(entry.name), { name: entry.name, mode: entry.mode, oid: entry.oid });
    return { entries, oid: oid ?? undefined };
  }

  private async directory(entry: Entry): Promise<Directory> {
    entry.tree ??= await this.load(entry.oid);
    return entry.tree;
  }

  /** The directories down to a path's parent (created when `create`), or undefined when one is missing. */
  private async parents(path: Buffer[], create: boolean): Promise<Directory[] | undefined> {
    this.root ??= await this.load(this.baseTree);
    const chain = [this.root];
    for (const segment of path.slice(0, -1)) {
      const current = chain[chain.length - 1];
      let entry = current.entries.get(key(segment));
      if (entry && !isTreeEntry(entry)) {
        if (!create) return undefined;
        throw new IndexError(INDEX_ERRORS.fileExists);
      }
      if (!entry) {
        if (!create) return undefined;
        entry = { name: segment, mode: '40000', oid: '', tree: { entries: new Map() } };
        current.entries.set(key(segment), entry);
      }
      chain.push(await this.directory(entry));
    }
    return chain;
  }

  /** The file (blob, symlink or submodule) at a path, or undefined. */
  async file(path: Buffer[]): Promise<{ mode: string; oid: string } | undefined> {
    const chain = await this.parents(path, false);
    const entry = chain?.[chain.length - 1].entries.get(key(path[path.length - 1]));
    return entry && !isTreeEntry(entry) ? { mode: entry.mode, oid: entry.oid } : undefined;
  }

  private static touch(chain: Directory[]): void {
    for (const directory of chain) directory.oid = undefined;
  }

  /** Adds a file; fails when a file or a directory of that name exists. */
  async create(path: Buffer[], file: { mode: string; oid: string }): Promise<void> {
    const chain = (await this.parents(path, true))!;
    const parent = chain[chain.length - 1];
    const existing = parent.entries.get(key(path[path.length - 1]));
    if (existing) throw new IndexError(isTreeEntry(existing) ? INDEX_ERRORS.directoryExists : INDEX_ERRORS.fileExists);
    parent.entries.set(key(path[path.length - 1]), { name: path[path.length - 1], ...file });
    TreeEditor.touch(chain);
  }

  /** Changes an existing file's content or mode; fails when there is no such file. */
  async update(path: Buffer[], change: { mode?: string; oid?: string }): Promise<void> {
    const chain = await this.parents(path, false);
    const entry = chain?.[chain.length - 1].entries.get(key(path[path.length - 1]));
    if (!chain || !entry || isTreeEntry(entry)) throw new IndexError(INDEX_ERRORS.fileNotFound);
    if (change.mode !== undefined) entry.mode = change.mode;
    if (change.oid !== undefined) entry.oid = change.oid;
    TreeEditor.touch(chain);
  }

  /** Removes a file, and the directories it leaves empty; fails when there is no such file. */
  async remove(path: Buffer[]): Promise<{ mode: string; oid: string }> {
    const chain = await this.parents(path, false);
    const entry = chain?.[chain.length - 1].entries.get(key(path[path.length - 1]));
    if (!chain || !entry || isTreeEntry(entry)) throw new IndexError(INDEX_ERRORS.fileNotFound);
    chain[chain.length - 1].entries.delete(key(path[path.length - 1]));
    for (let depth = chain.length - 1; depth > 0 && chain[depth].entries.size === 0; depth--) {
      chain[depth - 1].entries.delete(key(path[depth - 1]));
    }
    TreeEditor.touch(chain);
    return { mode: entry.mode, oid: entry.oid };
  }

  /**
   * The edited tree's id, and the tree objects to store (only those that changed, children first).
   */
  build(): { oid: string; objects: GitObject[] } {
    const objects: GitObject[] = [];
    const write = (directory: Directory): string => {
      if (directory.oid) return directory.oid;
      const entries = [...directory.entries.values()].map((entry) => {
        if (entry.tree && isTreeEntry(entry)) entry.oid = write(entry.tree);
        return { mode: entry.mode, name: entry.name, oid: entry.oid };
      });
      const body = serializeTree(entries);
      const oid = hashObject('tree', body);
      objects.push({ type: 'tree', body });
      directory.oid = oid;
      return oid;
    };
    if (!this.root) {
      if (this.baseTree) return { oid: this.baseTree, objects };
      this.root = { entries: new Map() };
    }
    return { oid: write(this.root), objects };
  }
}
