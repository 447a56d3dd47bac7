/**
 * Snippets: one item per snippet, which names its files and their S3 objects (`snippetObjects`),
 * one object per written content. A project snippet's is in its project's partition
 * (`PROJECT#<id>` / `SNIPPET#<id>`, swept with the partition when the project is deleted), a
 * personal snippet's (`projectId` null) in its own (`SNIPPET#<id>`), with its index entries
 * (`snippetIndexKeys`: its author's list, its visibility's, every personal snippet's). Ids come from the
 * global sequence `snippets` (GitLab's `snippets.id`), so id order is creation order. Edits are
 * conditioned on the version read (two edits at once: one wins, the other reads again).
 *
 * Contents are written before the item that names them and never overwritten (a fresh object per
 * content), so a reader always finds the objects of the item it read; an object whose write lost
 * is deleted by its writer, and objects a change leaves unnamed are deleted after it.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, type Item } from '../../platform/dynamo/query';
import { journalWrite, transactOr } from '../../platform/dynamo/transactions';
import { bucketName, deleteObjects, deleteObjectsUnder, isNoSuchKey, s3 } from '../../platform/s3/client';
import { projectIsLive } from '../../projects';
import type { SnippetFile, SnippetVisibility } from '../files';
import { SNIPPET_SEQUENCE, snippetIndexKeys, snippetKeys, snippetObjects } from './keys';

export { SNIPPET_VISIBILITIES, type SnippetVisibility } from '../files';

export interface Snippet {
  id: number;
  /** The project of a project snippet; null for a personal snippet. */
  projectId: number | null;
  title: string;
  description: string | null;
  visibility: SnippetVisibility;
  authorId: number;
  /** In path order (the first is GitLab's `file_name` and what `raw` answers). */
  files: SnippetFile[];
  createdAt: string;
  updatedAt: string;
  /** Optimistic locking: every edit is conditioned on it and raises it. */
  version: number;
}

/** What an edit may change. */
export type SnippetChanges = Partial<Pick<Snippet, 'title' | 'description' | 'visibility' | 'files'>>;

export const snippetFromItem = (item: Item): Snippet => entityFields(item) as Snippet;

export const newSnippetId = (): Promise<number> => nextId(SNIPPET_SEQUENCE);

export async function getSnippet(projectId: number | null, snippetId: number): Promise<Snippet | undefined> {
  if (!isId(snippetId)) return undefined;
  return getEntity(snippetKeys.snippet(projectId, snippetId), snippetFromItem);
}

/**
 * Adds a snippet: a project snippet while its project is live (`project_gone` otherwise: its
 * contents are then the caller's to delete), a personal one with its index entries.
 */
export function insertSnippet(snippet: Snippet): Promise<'project_gone' | undefined> {
  const indexes = snippet.projectId === null ? snippetIndexKeys.personal(snippet) : {};
  return transactOr(
    {
      project: snippet.projectId !== null && projectIsLive(snippet.projectId),
      snippet: { Put: { TableName: tableName(), Item: { ...snippetKeys.snippet(snippet.projectId, snippet.id), ...indexes, type: 'Snippet', ...snippet }, ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [['project', 'project_gone']],
  );
}

/**
 * Writes the changes over the version read; the snippet as written, or `conflict` when it changed
 * or went meanwhile (the caller reads it again).
 */
export async function updateSnippet(snippet: Snippet, changes: SnippetChanges, updatedAt: string): Promise<Snippet | 'conflict'> {
  // A personal snippet's visibility moves it between its visibility's index partitions.
  const moved = snippet.projectId === null && changes.visibility !== undefined && changes.visibility !== snippet.visibility;
  const indexes = moved ? snippetIndexKeys.visibility({ ...snippet, visibility: changes.visibility! }) : {};
  const values: Record<string, unknown> = { ...changes, ...indexes, updatedAt, version: snippet.version + 1 };
  const names = Object.keys(values);
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: snippetKeys.snippet(snippet.projectId, snippet.id),
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK) AND #version = :read',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name) => [`:${name}`, values[name]])), ':read': snippet.version },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!result?.Attributes) return 'conflict';
  if (moved) await journalWrite([result.Attributes], [{ ...snippetKeys.snippet(null, snippet.id), ...snippetIndexKeys.personal(snippet) }]);
  return snippetFromItem(result.Attributes);
}

/** Deletes the item, then its contents; whether there was one. */
export async function deleteSnippet(snippet: Snippet): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: snippetKeys.snippet(snippet.projectId, snippet.id), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' })),
  );
  if (deleted === undefined) return false;
  // A personal snippet leaves its index partitions.
  if (snippet.projectId === null && deleted.Attributes) await journalWrite([], [deleted.Attributes]);
  await deleteObjectsUnder(snippetObjects.snippetPrefix(snippet.projectId, snippet.id));
  return true;
}

/** Stores a content as a new object of the snippet; answers where and how large. */
export async function putContent(projectId: number | null, snippetId: number, content: string): Promise<{ object: string; size: number }> {
  const data = Buffer.from(content, 'utf8');
  const object = snippetObjects.content(projectId, snippetId, randomBytes(12).toString('hex'));
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: object, Body: data, ContentType: 'text/plain; charset=utf-8' }));
  return { object, size: data.length };
}

/** A file's content; `undefined` when its object is gone (the snippet deleted meanwhile). */
export async function readContent(file: SnippetFile): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: file.object }));
    return Buffer.from(await result.Body!.transformToByteArray());
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/** Deletes content objects (missing ones are no error). */
export const deleteContents = (objects: readonly string[]): Promise<void> => (objects.length === 0 ? Promise.resolve() : deleteObjects(objects));

/** Every content of a project's snippets (the project is being deleted; the items go with its partition). */
export const deleteProjectContents = (projectId: number): Promise<void> => deleteObjectsUnder(snippetObjects.projectPrefix(projectId));
