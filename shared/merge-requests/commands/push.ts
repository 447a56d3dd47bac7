/**
 * What a branch change does to merge requests (GitLab's `MergeRequests::RefreshService`), registered
 * with the repository feature's `onBranchesPushed` by the composition roots: for the open merge
 * requests whose source branch moved, a new diff version, `merge_status` unchecked, the system note
 * "added N commits", the issues its commits close, the Merge Request Hook `update` and its merge request pipeline
 * (`merge-request-pipelines.ts`, when the configuration has jobs for it); for those whose target branch moved,
 * `merge_status` unchecked. A deleted source branch leaves its merge requests as they are
 * (readable, unchecked).
 */
import { ZERO_OID, type BranchesPushed } from '../../repository';
import { getNamespace } from '../../namespaces';
import { logger } from '../../platform/logger';
import { getProject, projectFullPath, webUrlOf, type Project } from '../../projects';
import type { User } from '../../users';
import { branchHead, computeVersion, keepHead, repositoriesOf } from '../git';
import { addedCommitsNote } from '../issuables';
import { closingRefs, getMergeRequest, isOpen, markUnchecked, openFromBranch, openIntoBranch, writeMergeRequest, type MergeRequest } from '../store/merge-requests';
import { getVersion, versionContent } from '../store/versions';
import { projectSubjects } from '../queries/merge-requests';
import { closingIssues, refsOf } from './closing';
import { lastCommitOf, mergeRequestEffects } from './effects';
import { startMergeRequestPipeline } from './merge-request-pipelines';
import { recordVersion } from './shared';

/** Most attempts at recording a version on a merge request that keeps changing. */
const ATTEMPTS = 5;

/** The listener: every branch update of the push, in order. */
export async function refreshMergeRequests({ project, user, updates, skipCi }: BranchesPushed): Promise<void> {
  for (const update of updates) {
    for (const iid of await openIntoBranch(project.id, update.branch)) await markUnchecked(project.id, iid);
    for (const ref of await openFromBranch(project.id, update.branch)) {
      try {
        if (update.after === ZERO_OID) await markUnchecked(ref.projectId, ref.iid);
        else await refreshSource(project, user, ref, update.after, skipCi === true);
      } catch (error) {
        logger.error('merge request not refreshed after a push', { projectId: ref.projectId, iid: ref.iid, error });
      }
    }
  }
}

/** Internal: records a new version of one merge request whose source branch now points at `head`. */
async function refreshSource(source: Project, user: User, ref: { projectId: number; iid: number }, head: string, skipCi: boolean): Promise<void> {
  const target = ref.projectId === source.id ? source : await getProject(ref.projectId);
  if (!target) return;
  const namespace = await getNamespace(target.namespaceId);
  if (!namespace) return;
  const repositories = await repositoriesOf(target, source);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const mr = await getMergeRequest(ref.projectId, ref.iid);
    if (!mr || !isOpen(mr) || mr.sha === head) return;
    const targetHead = await branchHead(repositories.target, mr.targetBranch);
    const sourceHead = await branchHead(repositories.source, mr.sourceBranch);
    if (!targetHead || !sourceHead) return;
    const computed = await computeVersion(repositories, targetHead, sourceHead, webUrlOf(projectFullPath(namespace, target)));
    await keepHead(repositories.target, mr.iid, sourceHead);
    const previousVersion = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
    const known = new Set(previousVersion ? (await versionContent(previousVersion)).commits.map((commit) => commit.id) : []);
    const added = computed.content.commits.filter((commit) => !known.has(commit.id)).reverse();
    const { version, items } = await recordVersion(mr, computed);
    const next: MergeRequest = {
      ...mr,
      sha: sourceHead,
      targetSha: targetHead,
      latestVersionId: version.id,
      baseSha: version.baseCommitSha,
      changesCount: version.realSize,
      mergeStatus: 'unchecked',
      mergeStatusFor: null,
      updatedAt: new Date().toISOString(),
    };
    const notes = added.length > 0 ? [addedCommitsNote(added.map((commit) => ({ id: commit.id, title: String(commit.title ?? commit.message.split('\n')[0]) })))] : [];
    const effects = await mergeRequestEffects(next, user, target, { notes, hook: { action: 'update', previous: mr, lastCommit: lastCommitOf(computed.content.commits) } });
    // The issues it closes, from the new commits too (`cache_merge_request_closes_issues!`), as the pusher sees them.
    const subject = (await projectSubjects(user, [target.id])).get(target.id);
    const closes = subject
      ? { before: await closingRefs(mr.projectId, mr.iid), after: refsOf(await closingIssues(next, subject, user, [next.title, next.description ?? '', ...computed.content.commits.map((c) => c.message)])) }
      : undefined;
    const result = await writeMergeRequest({ previous: mr, next, version: items, closes, effects });
    // Its merge request pipeline, at the new head (none for a push with `ci.skip`, a rebase's).
    if (typeof result !== 'string' && !('pairTaken' in result) && !skipCi) await startMergeRequestPipeline({ project: target, namespace }, user, result);
    if (result !== 'changed') return;
  }
}
