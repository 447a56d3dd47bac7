/**
 * Packs: a pool's objects, stored as git packfiles with their v2 indexes in S3 (immutable, named
 * by the pack's checksum) and listed by one item each in the pool's partition. A pack is written
 * to S3 before its item, and its item before any ref points into it, so a ref never names an
 * object that is not stored; a pack whose push then failed is unreachable and housekeeping removes it.
 *
 * Reads go through two caches, both always valid because packs never change: the decoded packs
 * of this container (bounded by bytes), and their files in the function's `/tmp`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../platform/config';
import { db, tableName } from '../../platform/dynamo/client';
import { queryAll } from '../../platform/dynamo/query';
import { bucketName, deleteObjects, s3 } from '../../platform/s3/client';
import { parsePackIndex } from '../git/pack/idx';
import { PackFile } from '../git/pack/pack-file';
import { repositoryCollections, repositoryKeys } from './keys';
import { repositoryObjects } from './objects';

/** A stored pack as its pool lists it. */
export interface StoredPack {
  name: string;
  /** Bytes of the pack file. */
  size: number;
  objects: number;
  createdAt: string;
}

export async function listPacks(pool: string): Promise<StoredPack[]> {
  return (await queryAll(repositoryCollections.packs(pool))).map((item) => ({
    name: (item.SK as string).slice('PACK#'.length),
    size: item.size as number,
    objects: item.objects as number,
    createdAt: item.createdAt as string,
  }));
}

/** Stores a pack and its index, then lists it in the pool. */
export async function storePack(pool: string, pack: { name: string; data: Buffer; index: Buffer; objects: number }): Promise<StoredPack> {
  const { client, sdk } = await s3();
  await Promise.all([
    client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: repositoryObjects.pack(pool, pack.name), Body: pack.data })),
    client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: repositoryObjects.packIndex(pool, pack.name), Body: pack.index })),
  ]);
  const stored: StoredPack = { name: pack.name, size: pack.data.length, objects: pack.objects, createdAt: new Date().toISOString() };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...repositoryKeys.pack(pool, pack.name), type: 'Pack', ...stored } }));
  remember(pack.name, new PackFile(pack.data, parsePackIndex(pack.index)));
  return stored;
}

/** Unlists packs, then deletes their files (readers that listed them before keep their cached copies). */
export async function removePacks(pool: string, names: string[]): Promise<void> {
  for (const name of names) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: repositoryKeys.pack(pool, name) }));
  }
  await deleteObjects(names.flatMap((name) => [repositoryObjects.pack(pool, name), repositoryObjects.packIndex(pool, name)]));
}

// ---------------------------------------------------------------------------------------------
// Caches
// ---------------------------------------------------------------------------------------------

/** Decoded packs of this container, least recently used first. */
const loaded = new Map<string, PackFile>();
let loadedBytes = 0;

function remember(name: string, pack: PackFile): PackFile {
  if (loaded.has(name)) return loaded.get(name)!;
  loaded.set(name, pack);
  loadedBytes += pack.byteLength;
  const limit = config().packCacheBytes;
  for (const [oldest, candidate] of loaded) {
    if (loadedBytes <= limit || oldest === name) break;
    loaded.delete(oldest);
    loadedBytes -= candidate.byteLength;
  }
  return pack;
}

function recall(name: string): PackFile | undefined {
  const pack = loaded.get(name);
  if (pack) {
    loaded.delete(name);
    loaded.set(name, pack);
  }
  return pack;
}

const cacheDirectory = () => join(config().scratchDirectory, 'packs');

async function download(key: string): Promise<Buffer> {
  const { client, sdk } = await s3();
  const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return Buffer.from(await result.Body!.transformToByteArray());
}

/** A file of the `/tmp` cache, fetched from S3 on a miss (written under a temporary name, then renamed, so a reader never sees half a file). */
async function cachedFile(key: string, file: string): Promise<Buffer> {
  const path = join(cacheDirectory(), file);
  try {
    return await readFile(path);
  } catch {
    const data = await download(key);
    await mkdir(cacheDirectory(), { recursive: true });
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, data);
    await rename(partial, path);
    return data;
  }
}

const pending = new Map<string, Promise<PackFile>>();

/** One pack of a pool, from the container's memory, its `/tmp`, or S3. */
export async function loadPack(pool: string, name: string): Promise<PackFile> {
  const hit = recall(name);
  if (hit) return hit;
  let loading = pending.get(name);
  if (!loading) {
    loading = (async () => {
      const [data, index] = await Promise.all([
        cachedFile(repositoryObjects.pack(pool, name), `pack-${name}.pack`),
        cachedFile(repositoryObjects.packIndex(pool, name), `pack-${name}.idx`),
      ]);
      return remember(name, new PackFile(data, parsePackIndex(index)));
    })().finally(() => pending.delete(name));
    pending.set(name, loading);
  }
  return loading;
}
