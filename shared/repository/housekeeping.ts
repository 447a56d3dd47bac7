/**
 * Housekeeping (`POST /projects/:id/housekeeping`): repacks a pool into one pack and drops what no
 * repository reading the pool can reach. The new pack copies the stored entries, deltas included
 * (nothing is recompressed), and is stored before the old packs are unlisted, so a reader always
 * finds every object. Objects of recent packs are kept even when unreachable: a push stores its
 * pack before it moves its refs, so a pack younger than {@link GRACE_MS} may be about to become
 * reachable (git's prune expiry plays the same part).
 */
import { indexPack } from './git/pack/index-pack';
import { PackSet } from './git/pack/pack-set';
import { writePack } from './git/pack/pack-writer';
import { objectsToSend } from './git/walk';
import type { Repository } from './repository';
import { listPacks, loadPack, removePacks, storePack } from './store/packs';
import { listRefs } from './store/refs';
import { poolMembers } from './store/repositories';

/** How long a pack's unreachable objects are kept. */
export const GRACE_MS = 24 * 60 * 60 * 1000;

export interface HousekeepingResult {
  packsBefore: number;
  packsAfter: number;
  objectsKept: number;
  objectsDropped: number;
}

/** Every object reachable from the refs of every repository reading the pool. */
async function reachableObjects(pool: string, objects: PackSet): Promise<string[]> {
  const members = await poolMembers(pool);
  const refs = (await Promise.all(members.map((member) => listRefs(member.projectId, '', member.kind)))).flat();
  const tips = [...new Set(refs.map((ref) => ref.oid))];
  if (tips.length === 0) return [];
  return (await objectsToSend({ read: (oid) => objects.read(oid), wants: tips, haves: [] })).oids;
}

export async function housekeep(repository: Repository, now = Date.now()): Promise<HousekeepingResult> {
  const pool = repository.pool;
  const packs = pool ? await listPacks(pool) : [];
  const total = packs.reduce((sum, pack) => sum + pack.objects, 0);
  if (!pool || packs.length === 0) return { packsBefore: 0, packsAfter: 0, objectsKept: 0, objectsDropped: 0 };

  const files = await Promise.all(packs.map((pack) => loadPack(pool, pack.name)));
  const objects = new PackSet(files);
  const keep = new Set(await reachableObjects(pool, objects));
  packs.forEach((pack, i) => {
    if (now - Date.parse(pack.createdAt) >= GRACE_MS) return;
    const { index } = files[i];
    for (let n = 0; n < index.count; n++) keep.add(index.oidAt(n));
  });
  if (packs.length === 1 && keep.size === total) return { packsBefore: 1, packsAfter: 1, objectsKept: total, objectsDropped: 0 };

  const chunks: Buffer[] = [];
  await writePack([...keep].map((oid) => ({ oid })), objects, { ofsDelta: true, thin: false, clientHas: () => false }, (chunk) => {
    chunks.push(chunk);
  });
  const indexed = await indexPack(Buffer.concat(chunks), { readExternal: async () => undefined });
  if (indexed.objects.length > 0) {
    await storePack(pool, { name: indexed.name, data: indexed.pack, index: indexed.index, objects: indexed.objects.length });
  }
  await removePacks(pool, packs.map((pack) => pack.name).filter((name) => name !== indexed.name));
  await repository.recordSize();
  return { packsBefore: packs.length, packsAfter: indexed.objects.length > 0 ? 1 : 0, objectsKept: indexed.objects.length, objectsDropped: total - indexed.objects.length };
}
