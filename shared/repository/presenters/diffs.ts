/**
 * GitLab's `Diff` entity: a file's diff (hunks without file headers), its paths and modes (octal,
 * `0` for a side that does not exist), what happened to it, and whether its diff was left out for
 * its size (`too_large`; `collapsed` is false, as the API asks for expanded diffs).
 * `generated_file` is null: generated files are not detected for commit diffs.
 */
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
