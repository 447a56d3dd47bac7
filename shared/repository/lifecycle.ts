/**
 * A repository's life beside its project's: a fork starts with its source's refs and reads its
 * source's object pool (nothing is copied); a deleted project releases its pool and its wiki's, and the last
 * repository to leave a pool deletes the pool's packs. Declared as the projects feature's fork and
 * removal steps by the composition root (`functions/api.ts`).
 */
import { putMany } from '../platform/dynamo/batch';
import type { Project } from '../projects';
import { repositoryKeys } from './store/keys';
import { listPacks, removePacks } from './store/packs';
import { listRefs } from './store/refs';
import { createRepository, getRepository, leavePool, removePool, type RepositoryRecord } from './store/repositories';

/** A new fork reads its source's pool and starts with the source's branches and tags. */
export async function forkRepository(fork: Project, source: Project): Promise<void> {
  const origin = await getRepository(source.id);
  if (!origin) return;
  const refs = await listRefs(source.id);
  const record = await createRepository(fork.id, origin.pool);
  if (!record) return;
  await putMany(refs.map((ref) => ({ ...repositoryKeys.ref(fork.id, ref.name), type: 'Ref', oid: ref.oid, ...(ref.peeled ? { peeled: ref.peeled } : {}) })));
}

/**
 * Releases the pools of the project's repository and of its wiki (whose pool is its own); the last
 * repository reading a pool deletes its packs.
 */
export async function removeRepository(project: Project): Promise<void> {
  await Promise.all([release(await getRepository(project.id)), release(await getRepository(project.id, 'wiki'))]);
}

async function release(record: RepositoryRecord | undefined): Promise<void> {
  if (!record || !(await leavePool(record))) return;
  const packs = await listPacks(record.pool);
  await removePacks(record.pool, packs.map((pack) => pack.name));
  await removePool(record.pool);
}
