/**
 * An in-memory repository for unit tests of the repository API's queries and commands: objects in
 * a map (counted as they are read), refs in another, and just enough of `Repository` for
 * `ObjectReader` (reads, refs, and a pack index for abbreviated ids).
 */
import { serializeCommit, serializeTag, serializeTree, type TreeEntryInput } from '../../../shared/repository/git/objects/parse';
import { hashObject, type GitObject, type ObjectType } from '../../../shared/repository/git/objects/types';
import type { Project } from '../../../shared/projects';
import type { Repository } from '../../../shared/repository/repository';
import { ObjectReader } from '../../../shared/repository/queries/objects';
import type { Ref } from '../../../shared/repository/store/refs';

export const project = { id: 1, defaultBranch: 'main', path: 'demo' } as Project;

export class MemoryRepository {
  readonly objects = new Map<string, GitObject>();
  readonly refMap = new Map<string, string>();
  /** Object reads, to check what a walk costs. */
  reads = 0;
  private clock = 1_700_000_000;

  put(type: ObjectType, body: Buffer): string {
    const oid = hashObject(type, body);
    this.objects.set(oid, { type, body });
    return oid;
  }

  blob(content: string | Buffer): string {
    return this.put('blob', Buffer.isBuffer(content) ? content : Buffer.from(content));
  }

  /** A tree from `{ 'path/to/file': 'content' | { mode, oid } }`, directories made on the way. */
  tree(files: Record<string, string | { mode: string; oid: string }>): string {
    const root: Map<string, unknown> = new Map();
    for (const [path, file] of Object.entries(files)) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        if (!dir.has(part)) dir.set(part, new Map());
        dir = dir.get(part) as Map<string, unknown>;
      }
      dir.set(parts[parts.length - 1], typeof file === 'string' ? { mode: '100644', oid: this.blob(file) } : file);
    }
    const write = (dir: Map<string, unknown>): string => {
      const entries: TreeEntryInput[] = [...dir].map(([name, value]) =>
        value instanceof Map ? { mode: '40000', name, oid: write(value) } : { name, ...(value as { mode: string; oid: string }) },
      );
      return this.put('tree', serializeTree(entries));
    };
    return write(root);
  }

  /** A commit; each one a minute after the last unless `time` is given. */
  commit(options: { files?: Record<string, string | { mode: string; oid: string }>; tree?: string; parents?: string[]; message?: string; time?: number; author?: string }): string {
    const time = options.time ?? (this.clock += 60);
    const who = { name: options.author ?? 'A U Thor', email: `${(options.author ?? 'author').toLowerCase().replace(/\s/g, '')}@example.com`, timestamp: time, timezone: '+0200' };
    const tree = options.tree ?? this.tree(options.files ?? {});
    return this.put('commit', serializeCommit({ tree, parents: options.parents ?? [], author: who, committer: who, message: options.message ?? `commit at ${time}\n` }));
  }

  annotatedTag(name: string, object: string, message: string): string {
    return this.put('tag', serializeTag({ object, type: 'commit', tag: name, tagger: { name: 'T', email: 't@example.com', timestamp: 1_700_000_000, timezone: '-0530' }, message }));
  }

  setRef(name: string, oid: string): void {
    this.refMap.set(name, oid);
  }

  /** The part of `Repository` the API's readers use. */
  asRepository(): Repository {
    const sorted = () => [...this.objects.keys()].sort();
    return {
      project,
      read: async (oid: string) => {
        this.reads++;
        return this.objects.get(oid);
      },
      ref: async (name: string): Promise<Ref | undefined> => (this.refMap.has(name) ? { name, oid: this.refMap.get(name)! } : undefined),
      refs: async (prefix = ''): Promise<Ref[]> =>
        [...this.refMap]
          .filter(([name]) => name.startsWith(prefix))
          .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
          .map(([name, oid]) => ({ name, oid })),
      packSet: async () => ({ packs: [{ index: { get count() { return sorted().length; }, oidAt: (i: number) => sorted()[i] } }] }),
    } as unknown as Repository;
  }

  reader(): ObjectReader {
    return new ObjectReader(this.asRepository());
  }
}
/** A straight line of `n` commits, each changing `file-<i>.txt` (and `shared.txt` every other one). */
export function line(repo: MemoryRepository, n: number): string[] {
  const ids: string[] = [];
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`file-${i}.txt`] = `${i}\n`;
    if (i % 2 === 0) files['shared.txt'] = `version ${i}\n`;
    ids.push(repo.commit({ files: { ...files }, parents: ids.length ? [ids[ids.length - 1]] : [], message: `commit ${i}\n` }));
  }
  return ids;
}

