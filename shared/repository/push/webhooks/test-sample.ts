/**
 * The sample of a project hook's `push_events` and `tag_push_events` tests (GitLab's
 * `TestHooks::ProjectService#push_events_data`, `Gitlab::DataBuilder::Push.build_sample`): a push
 * of the default branch's newest commits (at most 3, oldest first), from the parent of the oldest
 * (40 zeros when it has none) to the branch's head. Tag push tests send the same push, as GitLab's.
 * Loaded on first use by the hooks function's composition root.
 */
import type { HookEvent, HookTestSample } from '../../../hooks';
import type { Project } from '../../../projects';
import type { User } from '../../../users';
import { parseCommit } from '../../git/objects/parse';
import { openRepository, ZERO_OID } from '../../repository';
import { describeCommits } from '../commits';
import type { WalkedCommit } from '../summary';
import './events';

/** How many commits the sample shows (GitLab's `build_sample`). */
const SAMPLE_COMMITS = 3;

export async function pushTestSample(project: Project, user: User): Promise<HookTestSample> {
  const repository = await openRepository(project);
  const head = await repository.ref(`refs/heads/${project.defaultBranch}`);
  if (!head) return { error: 'Ensure the project has at least one commit.' };
  const read = (oid: string) => repository.read(oid);
  const commits: WalkedCommit[] = [];
  for (let oid: string | undefined = head.oid; oid && commits.length < SAMPLE_COMMITS; ) {
    const object = await read(oid);
    if (object?.type !== 'commit') break;
    const commit = parseCommit(object.body);
    commits.push({ id: oid, commit });
    oid = commit.parents[0];
  }
  if (commits.length === 0) return { error: 'Ensure the project has at least one commit.' };
  const oldest = commits[commits.length - 1];
  const event = {
    id: 0,
    projectId: project.id,
    actorId: user.id,
    kind: 'push',
    action: 'pushed',
    createdAt: new Date().toISOString(),
    ref: `refs/heads/${project.defaultBranch}`,
    before: oldest.commit.parents[0] ?? ZERO_OID,
    after: head.oid,
    refProtected: false,
    checkoutSha: head.oid,
    message: null,
    commits: await describeCommits(read, [...commits].reverse()),
    totalCommitsCount: commits.length,
  };
  return { event: event as unknown as HookEvent };
}
