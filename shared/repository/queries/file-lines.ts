/**
 * How many lines a file has at a commit (GitLab's `blob.lines.count`): what a diff note on an
 * unchanged line outside a merge request's hunks is checked against (GitLab's
 * `Gitlab::Diff::LinesUnfolder` unfolds only up to the old file's last line).
 */
import { entryAtPath } from '../git/walk';
import type { Repository } from '../repository';
import { isTreeEntry, ObjectReader } from './objects';

/**
 * The number of lines of the file at `path` in commit `commitSha` (a last line without a newline
 * counts), or `undefined` when the commit or the file is not there.
 * @example
 * await fileLineCount(repository, baseSha, 'README.md'); // 12
 */
export async function fileLineCount(repository: Repository, commitSha: string, path: string): Promise<number | undefined> {
  return lineCountWith(new ObjectReader(repository), commitSha, path);
}

/** {@link fileLineCount} with a reader the caller holds. */
export async function lineCountWith(reader: ObjectReader, commitSha: string, path: string): Promise<number | undefined> {
  const commit = await reader.commit(commitSha);
  const entry = commit && (await entryAtPath(reader, commit.tree, path));
  const content = entry && !isTreeEntry(entry) ? await reader.blob(entry.oid) : undefined;
  if (!content) return undefined;
  if (content.length === 0) return 0;
  let lines = 0;
  for (const byte of content) if (byte === 0x0a) lines++;
  return content[content.length - 1] === 0x0a ? lines : lines + 1;
}
