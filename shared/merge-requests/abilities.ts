/**
 * The merge-requests feature's abilities on a project, as GitLab's `ProjectPolicy` names them.
 * Pure rules, written with `shared/auth/rules.ts`, assembled by `shared/auth/policy.ts`.
 */
import { DEVELOPER, featureOpen, OWNER, REPORTER, type Abilities, type ProjectRule } from '../auth/rules';

/**
 * See the project's merge requests: whoever reads its code (guests of a private project do not),
 * when merge requests are enabled (reporters and above when `private`, GitLab's minimum for them).
 */
const readMergeRequest: ProjectRule = (user, s) =>
  featureOpen(user, s, 'merge_requests', REPORTER) && (s.project.visibility !== 'private' || s.access.level >= REPORTER);

export const abilities = {
  project: {
    read_merge_request: readMergeRequest,
    /** Open a merge request whose source is this project: who may push to it (developer and above). */
    create_merge_request_from: (user, s) => user !== null && readMergeRequest(user, s) && !s.project.archived && s.access.level >= DEVELOPER,
    /** Open a merge request targeting this project: any signed-in user who reads its merge requests. */
    create_merge_request_in: (user, s) => user !== null && readMergeRequest(user, s) && !s.project.archived,
    /** Edit any merge request and set its labels, milestone and assignee: developer and above. */
    admin_merge_request: (user, s) => readMergeRequest(user, s) && s.access.level >= DEVELOPER,
    /** Delete a merge request: owner (and admins). */
    destroy_merge_request: (_user, s) => s.access.level >= OWNER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
