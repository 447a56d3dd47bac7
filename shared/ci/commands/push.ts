/**
 * Pipelines on push: every pushed branch (not deleted) whose new commit has a `.gitlab-ci.yml`
 * gets a pipeline (source `push`). Registered by the composition roots on the repository's
 * `onBranchesPushed`; a failure is the listener's (logged by the repository), never the push's.
 */
import type { BranchesPushed } from '../../repository';
import { createPipeline } from './pipelines';
import { ensureRegistrationLookup } from './runners';

const ZERO = /^0{40}$/;

export async function startPipelinesOnPush({ project, user, updates }: BranchesPushed): Promise<void> {
  if (!project.jobsEnabled) return;
  // Runners register with the project's token: make it findable (a digest pointing at the project).
  await ensureRegistrationLookup(project);
  for (const update of updates) {
    if (ZERO.test(update.after)) continue;
    await createPipeline({ project, ref: update.branch, tag: false, sha: update.after, beforeSha: update.before, source: 'push', user });
  }
}
