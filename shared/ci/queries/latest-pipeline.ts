/**
 * GitLab's `Project#latest_pipeline(ref)` (`GET /projects/:id/pipelines/latest`). Apart from the
 * other pipeline queries because it reads the repository: modules the feature's `index.ts`
 * re-exports do not load the repository feature with it.
 */
import type { Project } from '../../projects';
import { resolveRef } from '../git';
import type { Pipeline } from '../store/pipelines';
import { latestPipelineFor } from './jobs';

/**
 * The newest pipeline of the branch or tag `ref` (the default branch when not given) run for the
 * commit it points at now; undefined when the ref does not exist or that commit has none among the
 * ref's newest pipelines (C3c).
 */
export async function latestPipelineOnRef(project: Project, ref?: string): Promise<Pipeline | undefined> {
  const name = ref || project.defaultBranch;
  const target = await resolveRef(project, name);
  return target ? latestPipelineFor(project.id, name, target.sha, target.tag) : undefined;
}
