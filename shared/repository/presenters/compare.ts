/**
 * GitLab's `Compare` entity: the newest commit, the commits (oldest first), the diffs, and
 * `compare_same_ref` (unified diffs with `unidiff`); `compare_timeout` is false (the diffs are never cut short by a timeout).
 */
import type { FileChange, FilePatch } from '../queries/diff';
import type { Comparison } from '../queries/compare';
import { presentCommit } from './commits';
import { diffsAsAsked, presentDiff } from './diffs';

export function presentComparison(comparison: Comparison, diffs: Array<{ change: FileChange; patch: FilePatch }>, projectWebUrl: string, options: { unidiff?: boolean } = {}) {
  const commits = comparison.commits.map((commit) => presentCommit(commit, { projectWebUrl }));
  const from = comparison.start ?? comparison.from.id;
  return {
    commit: commits[commits.length - 1] ?? null,
    commits,
    diffs: diffsAsAsked(diffs.map(({ change, patch }) => presentDiff(change, patch)), options),
    compare_timeout: false,
    compare_same_ref: comparison.same,
    web_url: `${projectWebUrl}/-/compare/${from}...${comparison.to.id}`,
  };
}
