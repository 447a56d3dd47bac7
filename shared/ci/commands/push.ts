/**
 * Pipelines on push (GitLab's `Git::BranchPushService` and `Git::TagPushService`, each creating a
 * pipeline with source `push`): every pushed branch and every pushed tag (not deleted) whose commit
 * has a `.gitlab-ci.yml` gets a pipeline; a tag's runs on the commit it points at, with `tag: true`
 * (so `CI_COMMIT_TAG` is set and `only: tags` / `$CI_COMMIT_TAG` rules select its jobs).
 * Registered by the composition roots on the repository's `onBranchesPushed` (which also hears of
 * the API's tag and branch writes); a failure is the listener's (logged by the repository), never
 * the push's. A push with `ci.skip` (a merge request's rebase with `skip_ci`) starts none.
 */
import type { BranchesPushed } from '../../repository';
import { createPipeline } from './pipelines';

const ZERO = /^0{40}$/;

export async function startPipelinesOnPush({ project, user, updates, tags, skipCi }: BranchesPushed): Promise<void> {
  if (!project.jobsEnabled || skipCi) return;
  for (const update of updates) {
    if (ZERO.test(update.after)) continue;
    await createPipeline({ project, ref: update.branch, tag: false, sha: update.after, beforeSha: update.before, source: 'push', user });
  }
  for (const update of tags) {
    if (ZERO.test(update.after) || !update.commit) continue;
    await createPipeline({ project, ref: update.tag, tag: true, sha: update.commit, beforeSha: update.before, source: 'push', user });
  }
}
