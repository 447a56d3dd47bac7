/**
 * A merge request pipeline's predefined variables (GitLab's `Ci::Pipeline#predefined_variables`
 * for a merge request pipeline with `MergeRequest#predefined_variables`): what its rules and
 * `workflow: rules` are evaluated with and what its jobs' runners get, from the merge request as it
 * was when the pipeline was created. Only detached pipelines exist here (`CI_MERGE_REQUEST_EVENT_TYPE`
 * `detached`): their source and target branch shas are empty, as GitLab's.
 */
import { config } from '../platform/config';
import type { MergeRequestSnapshot } from './store/pipelines';

/** How much of the description `CI_MERGE_REQUEST_DESCRIPTION` holds (GitLab: 2700 characters). */
const DESCRIPTION_LIMIT = 2700;

/** The ref a merge request pipeline runs on: the merge request's head ref in its target project. */
export const mergeRequestRefPath = (iid: number) => `refs/merge-requests/${iid}/head`;

/** Whether a ref is a merge request's head ref (`refs/merge-requests/<iid>/head`). */
export const isMergeRequestRef = (ref: string) => /^refs\/merge-requests\/\d+\/head$/.test(ref);

export function mergeRequestVariables(mr: MergeRequestSnapshot): Array<[string, string]> {
  const base = config().externalUrl;
  const truncated = mr.description.length > DESCRIPTION_LIMIT;
  return [
    ['CI_MERGE_REQUEST_EVENT_TYPE', 'detached'],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', ''],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_SHA', ''],
    ['CI_MERGE_REQUEST_DIFF_ID', String(mr.diffId)],
    ['CI_MERGE_REQUEST_DIFF_BASE_SHA', mr.diffBaseSha],
    ['CI_MERGE_REQUEST_ID', String(mr.id)],
    ['CI_MERGE_REQUEST_IID', String(mr.iid)],
    ['CI_MERGE_REQUEST_REF_PATH', mergeRequestRefPath(mr.iid)],
    ['CI_MERGE_REQUEST_PROJECT_ID', String(mr.projectId)],
    ['CI_MERGE_REQUEST_PROJECT_PATH', mr.projectPath],
    ['CI_MERGE_REQUEST_PROJECT_URL', `${base}/${mr.projectPath}`],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_NAME', mr.targetBranch],
    ['CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED', String(mr.targetBranchProtected)],
    ['CI_MERGE_REQUEST_TITLE', mr.title],
    ['CI_MERGE_REQUEST_DESCRIPTION', truncated ? mr.description.slice(0, DESCRIPTION_LIMIT) : mr.description],
    ['CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED', String(truncated)],
    ...(mr.assignees.length ? ([['CI_MERGE_REQUEST_ASSIGNEES', mr.assignees.join(',')]] as Array<[string, string]>) : []),
    ...(mr.milestone !== null ? ([['CI_MERGE_REQUEST_MILESTONE', mr.milestone]] as Array<[string, string]>) : []),
    ...(mr.labels.length ? ([['CI_MERGE_REQUEST_LABELS', mr.labels.join(',')]] as Array<[string, string]>) : []),
    ['CI_MERGE_REQUEST_DRAFT', String(mr.draft)],
    ['CI_MERGE_REQUEST_SOURCE_PROJECT_ID', String(mr.sourceProjectId)],
    ['CI_MERGE_REQUEST_SOURCE_PROJECT_PATH', mr.sourceProjectPath],
    ['CI_MERGE_REQUEST_SOURCE_PROJECT_URL', `${base}/${mr.sourceProjectPath}`],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', mr.sourceBranch],
    ['CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED', String(mr.sourceBranchProtected)],
  ];
}
