/**
 * A merge request's diff version (GitLab's `MergeRequestDiff`, collected from `Gitlab::Git::Compare`
 * of its base and head): the commits of the head not in the base, and the files changed from the
 * base's tree to the head's, with renames found as `git diff -M` finds them (`diff.ts`).
 *
 * The diffs are capped as `Gitlab::Git::DiffCollection` caps them with its default ("safe") limits:
 * at most 100 files, and the file that brings the lines of the diffs to 5000, or their bytes to 5 KiB
 * a file (500 KiB), is left out with all after it; `overflow` then says so and `realSize` is the
 * count with a `+` (`DiffCollection#real_size`). A file's patch over GitLab's patch limit
 * (`diff_max_patch_bytes`, 200 KiB) is kept with an empty `diff` and `too_large`. Patches are made
 * file by file and stop at the cap, so a huge diff costs its first files, not all of them.
 */
import { revList } from '../git/walk';
import { presentDiff } from '../presenters/diffs';
import { MAX_COMPARE_COMMITS } from './compare';
import { diffTrees, patchOf } from './diff';
import { ObjectReader, type CommitObject } from './objects';
import type { Repository } from '../repository';

/** `Gitlab::Git::DiffCollection`'s default limits (`Commit.diff_safe_max_files` / `diff_safe_max_lines`). */
export const MERGE_REQUEST_DIFF_LIMITS = { maxFiles: 100, maxLines: 5000 } as const;
/** The most commits a version lists (the newest ones), as the compare API. */
export const MAX_MERGE_REQUEST_COMMITS = MAX_COMPARE_COMMITS;

/** One file of a version: GitLab's `Diff` entity (`changes` of a merge request, `diffs` of a version). */
export type FileDiff = ReturnType<typeof presentDiff>;

export interface DiffVersion {
  /** Newest first (`git log base..head` order), at most {@link MAX_MERGE_REQUEST_COMMITS}; present them with `presentCommit`. */
  commits: CommitObject[];
  diffs: FileDiff[];
  /** Files were left out (the limits were reached). */
  overflow: boolean;
  /** The number of files listed, as a string, with `+` when `overflow` (GitLab's `real_size`). */
  realSize: string;
}

export interface DiffVersionInput {
  /** The commit the diff starts from (the merge base of the target branch and the source branch). */
  base: string;
  /** The source branch's tip. */
  head: string;
  /** Other limits than GitLab's defaults (bytes follow files: 5 KiB each). */
  limits?: { maxFiles: number; maxLines: number };
}

/**
 * The commits and diffs of a merge request version; the objects of both commits must be readable
 * in `repository` (see `fetchCommits` for a source branch in a fork with its own pool).
 *
 * @example
 * const version = await diffVersion(repository, { base: mergeBaseSha, head: sourceSha });
 * // version.realSize === '3', version.diffs[0].new_path === 'README.md'
 */
export async function diffVersion(repository: Repository, input: DiffVersionInput): Promise<DiffVersion> {
  const reader = new ObjectReader(repository);
  const [base, head] = await Promise.all([reader.commit(input.base), reader.commit(input.head)]);
  if (!base) throw new Error(`no commit ${input.base}`);
  if (!head) throw new Error(`no commit ${input.head}`);
  const commits: CommitObject[] = [];
  if (base.id !== head.id) {
    for await (const oid of revList(reader.read, { include: [head.id], exclude: [base.id], limit: MAX_MERGE_REQUEST_COMMITS })) commits.push((await reader.commit(oid))!);
  }
  const { maxFiles, maxLines } = input.limits ?? MERGE_REQUEST_DIFF_LIMITS;
  const maxBytes = maxFiles * 5 * 1024;
  const diffs: FileDiff[] = [];
  let overflow = false;
  let lines = 0;
  let bytes = 0;
  for (const change of await diffTrees(reader, base.tree, head.tree)) {
    if (diffs.length >= maxFiles) {
      overflow = true;
      break;
    }
    const patch = await patchOf(reader, change);
    // `Gitlab::Git::Diff#line_count`: the lines of the patch text, hunk headers included.
    lines += patch.diff === '' ? 0 : patch.diff.split('\n').length - (patch.diff.endsWith('\n') ? 1 : 0);
    bytes += Buffer.byteLength(patch.diff);
    if (lines >= maxLines || bytes >= maxBytes) {
      overflow = true;
      break;
    }
    diffs.push(presentDiff(change, patch));
  }
  return { commits, diffs, overflow, realSize: `${diffs.length}${overflow ? '+' : ''}` };
}
