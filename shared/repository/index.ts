/**
 * The repository feature's public API: the only module other features and the composition roots
 * import.
 */
export { forkRepository, removeRepository } from './lifecycle';
export { branchProtection, BranchRules, TagRules, type BranchProtection } from './queries/protection';
export { openRepository, openWikiRepository, Repository, WIKI_BRANCH, ZERO_OID } from './repository';
// The wikis feature: a project's wiki repository, its files and commits (loaded by it through `import()`).
export { commitWikiChanges, readWikiBlob, readWikiTree, type WikiChange, type WikiFile, type WikiTree } from './wiki-files';
export { defaultBranchHead, latestTagName } from './queries/head-refs';
// Merge requests: merging, moving the target branch, diff versions, sources in other pools.
export { canMergeCleanly, mergeCommits, type MergeCommitsInput, type MergeOutcome } from './commands/merge';
export { moveBranch } from './commands/refs';
export { MAX_REBASE_COMMITS, rebaseCommits, type RebaseCommitsInput, type RebaseOutcome } from './commands/rebase';
export { deleteBranch } from './commands/branches';
export { fetchCommits } from './commands/fetch';
export { keepMergeRequestHead, mergeRequestHeadRef } from './commands/merge-request-refs';
export { commitsBetween, countCommitsBetween, isAncestorCommit, mergeBaseOf } from './queries/ancestry';
export { fileLineCount } from './queries/file-lines';
export {
  diffLines,
  isCompletePosition,
  lineCodeIn,
  positionFrom,
  positionNoteErrors,
  shownPosition,
  unfoldedLineCode,
  unfoldedNewLine,
  type CheckedPosition,
  type DiffFileText,
  type PositionInput,
} from './diff-position';
export { diffVersion, MERGE_REQUEST_DIFF_LIMITS, type DiffVersion, type DiffVersionInput, type FileDiff } from './queries/diff-versions';
export { presentCommit, presentCommitDetail } from './presenters/commits';
// The Search API's `commits` and `blobs` scopes (the search feature, loaded on first use).
export { logCommits } from './queries/commits';
export { resolveCommit } from './queries/revisions';
export { isTreeEntry } from './queries/objects';
// `Commit#title`, for payloads of other features (CI's Deployment Hook).
export { commitTitle } from './push/commits';
export { diffsAsAsked, unidiffParam } from './presenters/diffs';
export { rawDiff } from './queries/raw-diff';
export type { CommitObject } from './queries/objects';
// Branch and tag changes (pushes and API writes), for features above this one, registered by the composition roots.
export { onBranchesPushed, onWikiPushed, type BranchesPushed, type BranchesPushedListener, type BranchUpdate, type TagUpdate, type WikiPushed } from './push/listeners';
// CI job tokens as git credentials (`gitlab-ci-token:<job token>`), resolved by CI through the composition roots.
export { resolveJobTokensWith, type JobTokenAccess, type JobTokenResolver } from './smart-http/credentials';
export { commitNoteHookPayloads } from './webhooks/commit-notes';
// Commit notes' mention todos (built by the issues feature) and commits as todo targets, wired by the composition root.
export { mentionTodosWith, type CommitNoteMention, type MentionTodoProvider } from './commit-note-todos';
export { commitTodoTargets, type CommitTodoTarget } from './todo-targets';
// Releases: tags found, created and presented, and what goes with a tag deleted through the API (registered by the composition roots).
export { createTag } from './commands/tags';
export { ObjectReader } from './queries/objects';
// A commit by any revision (`404 Commit Not Found`), for routes of other features on commits (a commit's merge requests).
export { findCommitOrNotFound } from './queries/commits';
export { TAG_PREFIX } from './queries/revisions';
export { removeWithTag, type TagRemoval } from './tag-removals';
export { tagReleasesWith, type TagRelease, type TagReleases } from './tag-releases';
