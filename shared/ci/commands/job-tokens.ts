/** A running job's token as a git credential (its project, read only): what the repository's smart HTTP asks. */
import { getJob, jobTokenOwner } from '../store/pipelines';
import { digestOf } from './runners';

export async function jobTokenGitAccess(token: string): Promise<{ projectId: number; userId: number | null } | undefined> {
  const owner = await jobTokenOwner(digestOf(token));
  if (!owner) return undefined;
  const job = await getJob(owner.jobId);
  return job?.status === 'running' ? { projectId: owner.projectId, userId: job.userId } : undefined;
}
