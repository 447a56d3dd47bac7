/**
 * A running job's token: what it stands for (its job, project and user: the API's job token
 * authentication and git over HTTP ask), and where it may be used beside its own project
 * (GitLab's `Ci::JobToken::Scope#accessible?`, inbound: the decision the projects feature asks
 * through the composition root, for the API routes and git alike).
 */
import { getNamespace } from '../../namespaces';
import { getProject } from '../../projects';
import { getItem } from '../../platform/dynamo/query';
import { ciKeys } from '../store/keys';
import { anyOnAllowlist, scopeFromItem } from '../store/job-token-scope';
import { getJob, jobTokenOwner } from '../store/pipelines';
import { digestOf } from './runners';

export async function jobTokenGitAccess(token: string): Promise<{ projectId: number; jobId: number; userId: number | null } | undefined> {
  const owner = await jobTokenOwner(digestOf(token));
  if (!owner) return undefined;
  const job = await getJob(owner.jobId);
  return job?.status === 'running' ? { projectId: owner.projectId, jobId: job.id, userId: job.userId } : undefined;
}

/**
 * Whether jobs of `sourceProjectId` may use their token on `targetProjectId`: the target's inbound
 * scope is disabled, or the source project is on its allowlist, or a group above the source
 * project is (GitLab's `includes_group?`: the project's parent groups, any depth). The job's own
 * project is always reachable. What the job's user may do there is the caller's check.
 *
 * Cost: one BatchGetItem (the target's scope setting, the source's project entry, the source
 * project); when neither decides and the target has group entries, the source's namespace
 * (GetItem), then one BatchGetItem of the entries of its groups (at most 21 keys).
 */
export async function jobTokenScopeAllows(sourceProjectId: number, targetProjectId: number): Promise<boolean> {
  if (sourceProjectId === targetProjectId) return true;
  // Point reads of one turn go out together as one BatchGetItem (`platform/dynamo/batch.ts`).
  const [scopeItem, projectListed, source] = await Promise.all([
    getItem(ciKeys.jobTokenScope(targetProjectId)),
    anyOnAllowlist(targetProjectId, [{ kind: 'project', id: sourceProjectId }]),
    getProject(sourceProjectId),
  ]);
  const scope = scopeFromItem(scopeItem);
  if (!scope.inboundEnabled || projectListed) return true;
  if (scope.groupCount <= 0 || !source) return false;
  const namespace = await getNamespace(source.namespaceId);
  if (!namespace || namespace.kind !== 'group') return false;
  return anyOnAllowlist(targetProjectId, [...namespace.ancestorIds, namespace.id].map((id) => ({ kind: 'group' as const, id })));
}
