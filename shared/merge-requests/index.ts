/**
 * The merge-requests feature's public API, for the composition roots (`functions/api.ts`, the
 * delivery function): the push listener (registered with the repository's `onBranchesPushed`), the
 * todo target resolver (registered with the issues feature), the webhook payload builders, and the
 * CI listener for deferred merges (registered with CI's `onPipelineFinished`), and the background
 * rebase (run by the jobs worker). Nothing imports this feature but `functions/*` and infra.
 */
// Registers how the feature's hook events are stored, in every process that loads the feature.
import './webhooks/events';

export { refreshMergeRequests } from './commands/push';
export { onPipelineSucceeded } from './commands/merge';
export { mergeWhenPipelineSucceeded } from './commands/pipelines';
export { MERGE_REQUEST_REBASE, runRebaseJob } from './commands/rebase';
export { mergeRequestTodoTargets } from './todo-targets';
export { removeMergeRequestObjects } from './lifecycle';
export { removeAuthoredMergeRequests } from './commands/author-reassignment';
export { mergeRequestHookPayloads } from './webhooks/builders';
export { linkProjectMergeRequestCommits, MR_COMMIT_LINKS_MIGRATION } from './commands/commit-links';
export { presentMergeRequests } from './presenters/merge-requests';
export { groupMergeRequestStream, memberMergeRequestStream, projectMergeRequestStream, projectSubjects as mergeRequestProjectSubjects, type MergeRequestFilters, type MergeRequestOrder } from './queries/merge-requests';
