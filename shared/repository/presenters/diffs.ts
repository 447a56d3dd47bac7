/**
 * GitLab's `Diff` entity: a file's diff (hunks without file headers), its paths and modes (octal,
 * `0` for a side that does not exist), what happened to it, and whether its diff was left out for
 * its size (`too_large`; `collapsed` is false, as the API asks for expanded diffs).
 * `generated_file` is null: generated files are not detected for commit diffs.
 */
import { p } from '../../platform/http/params';
import type { FileChange, FilePatch } from '../queries/diff';

export function presentDiff(change: FileChange, patch: FilePatch) {
  return {
    diff: patch.diff,
    collapsed: false,
    too_large: patch.tooLarge,
    new_path: change.newPath,
    old_path: change.oldPath,
    a_mode: change.oldMode.toString(8),
    b_mode: change.newMode.toString(8),
    new_file: change.newFile,
    renamed_file: change.renamedFile,
    deleted_file: change.deletedFile,
    generated_file: null,
  };
}

/** What {@link asUnidiff} reads of a presented diff. */
type PresentedDiff = Pick<ReturnType<typeof presentDiff>, 'diff' | 'old_path' | 'new_path' | 'new_file' | 'deleted_file'>;

/**
 * A presented diff in the unified format (GitLab's `Gitlab::Git::Diff#unidiff`): its hunks after
 * `--- a/<old path>` and `+++ b/<new path>` (`/dev/null` for a side that does not exist). An
 * empty diff (too large, or no change in content) and a binary file's notice stay as they are.
 *
 * @example
 * asUnidiff({ diff: '@@ -1 +1 @@\n-a\n+b\n', old_path: 'x', new_path: 'x', new_file: false, deleted_file: false }).diff
 * // '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'
 */
export function asUnidiff<T extends PresentedDiff>(diff: T): T {
  if (diff.diff === '' || diff.diff.startsWith('Binary files ')) return diff;
  const from = diff.new_file ? '/dev/null' : `a/${diff.old_path}`;
  const to = diff.deleted_file ? '/dev/null' : `b/${diff.new_path}`;
  return { ...diff, diff: `--- ${from}\n+++ ${to}\n${diff.diff}` };
}

/**
 * The `unidiff` parameter of GitLab's diff endpoints (`use :with_unidiff`, GitLab 16.5): `true`
 * presents each diff as a unified diff, with its `---`/`+++` file lines ({@link diffsAsAsked}).
 */
export const unidiffParam = { unidiff: p.bool() };

/** The diffs as the request asked for them: unified with `unidiff=true`, as stored otherwise. */
export const diffsAsAsked = <T extends PresentedDiff>(diffs: T[], params: { unidiff?: boolean }): T[] => (params.unidiff ? diffs.map(asUnidiff) : diffs);
