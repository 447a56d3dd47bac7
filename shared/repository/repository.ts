/**
 * A project's repository as the rest of the feature uses it: its refs (DynamoDB) and its objects
 * (the packs of its pool, S3 through the caches of `store/packs.ts`). Opening one reads the
 * repository record and the pool's pack list; packs are fetched only when an object is read.
 */
import { recordRepositorySize, type Project } from '../projects';
import type { GitObject, ObjectType } from './git/objects/types';
import { indexPack } from './git/pack/index-pack';
import { buildPack } from './git/pack/pack-writer';
import { PackSet } from './git/pack/pack-set';
import { SelfContainedCheck } from './git/pack/self-contained';
import { listPacks, loadPack, storePack } from './store/packs';
import type { RepositoryKind } from './store/keys';
import { createRepository, getRepository, ownPool, type RepositoryRecord } from './store/repositories';
import { listRefs, getRef, type Ref } from './store/refs';

/** The branch a wiki's pages live on (GitLab's default branch name for a new wiki repository). */
export const WIKI_BRANCH = 'main';

/** The id git writes for "no object" (a ref created or deleted). */
export { ZERO_OID } from './git/protocol/advertise';

export class Repository {
  private objects?: Promise<PackSet>;
  /**
   * The commits and tags of the packs this instance stored (one request's push), by id: what the
   * push's checks and effects read next (the pushed commits), already inflated and resolved.
   * Bounded by the size of a push. Trees are left to the packs: a self-contained pack needs no
   * connectivity walk, and keeping a whole history's trees costs more in garbage collection than
   * reading the few an incremental push's walk needs.
   */
  private received = new Map<string, GitObject>();
  /**
   * The objects of the packs this instance stored that were self-contained (every object they
   * refer to is in them): everything reachable from one of these is stored.
   */
  private closed = new Set<string>();

  constructor(
    readonly project: Project,
    private record: RepositoryRecord | undefined,
    /** The project's code repository, or its wiki's (refs and pool of their own). */
    readonly kind: RepositoryKind = 'project',
  ) {}

  /** The branch HEAD names: the project's default branch, or the wiki's. */
  get headBranch(): string {
    return this.kind === 'wiki' ? WIKI_BRANCH : this.project.defaultBranch;
  }

  /** The pool this repository reads (its own until it has written anything, unless it is a fork). */
  get pool(): string | undefined {
    return this.record?.pool;
  }

  refs(prefix = ''): Promise<Ref[]> {
    return listRefs(this.project.id, prefix, this.kind);
  }

  ref(name: string): Promise<Ref | undefined> {
    return getRef(this.project.id, name, this.kind);
  }

  /** Every object of the pool, through the packs it lists now. */
  packSet(): Promise<PackSet> {
    const pool = this.record?.pool;
    this.objects ??= pool
      ? listPacks(pool).then(async (packs) => new PackSet(await Promise.all(packs.map((pack) => loadPack(pool, pack.name)))))
      : Promise.resolve(new PackSet([]));
    return this.objects;
  }

  async read(oid: string): Promise<GitObject | undefined> {
    return this.received.get(oid) ?? (await this.packSet()).read(oid);
  }

  /** The record, created with the repository's first write. */
  private async writable(): Promise<RepositoryRecord> {
    this.record ??= await createRepository(this.project.id, ownPool(this.project.id, this.kind), this.kind);
    // Only a project deleted meanwhile has its own pool being emptied.
    if (!this.record) throw new Error(`the repository of project ${this.project.id} is being deleted`);
    return this.record;
  }

  /**
   * Stores a pack received from a client (thin packs are completed with bases from the pool):
   * afterwards its objects can be read and refs may point at them.
   */
  async receivePack(pack: Buffer, onProgress?: (done: number, total: number) => void): Promise<{ objects: number }> {
    const objects = await this.packSet();
    const received = new Map<string, GitObject>();
    const references = new SelfContainedCheck();
    const onObject = (oid: string, type: ObjectType, body: Buffer) => {
      references.add(type, body);
      if (type === 'commit' || type === 'tag') received.set(oid, { type, body });
    };
    const indexed = await indexPack(pack, { readExternal: (oid) => objects.read(oid), onProgress, onObject });
    if (indexed.objects.length === 0) return { objects: 0 };
    const { pool } = await this.writable();
    await storePack(pool, { name: indexed.name, data: indexed.pack, index: indexed.index, objects: indexed.objects.length });
    for (const [oid, object] of received) this.received.set(oid, object);
    const ids = indexed.objects.map(({ oid }) => oid);
    if (references.allIn(ids)) for (const oid of ids) this.closed.add(oid);
    this.objects = undefined;
    await this.recordSize();
    return { objects: indexed.objects.length };
  }

  /**
   * Whether everything reachable from `oids` is stored, known without a walk: they are objects of
   * self-contained packs this instance stored (git's "self-contained and connected" packs). False
   * when it cannot tell so.
   */
  reachableStored(oids: readonly string[]): boolean {
    return oids.every((oid) => this.closed.has(oid));
  }

  /** Records the pool's size as the project's repository size (project statistics). */
  async recordSize(): Promise<void> {
    // A wiki's size is not the repository size of the project's statistics.
    if (this.kind === 'wiki') return;
    const pool = this.record?.pool;
    const packs = pool ? await listPacks(pool) : [];
    await recordRepositorySize(this.project.id, packs.reduce((sum, pack) => sum + pack.size, 0));
  }

  /** Stores new objects (made by the API: commits, trees, blobs, tags) as one pack. */
  async writeObjects(objects: GitObject[]): Promise<void> {
    if (objects.length === 0) return;
    await this.receivePack(buildPack(objects));
  }
}

export async function openRepository(project: Project): Promise<Repository> {
  return new Repository(project, await getRepository(project.id));
}

/** The project's wiki repository (`<namespace>/<project>.wiki.git`), created by its first write. */
export async function openWikiRepository(project: Project): Promise<Repository> {
  return new Repository(project, await getRepository(project.id, 'wiki'), 'wiki');
}
