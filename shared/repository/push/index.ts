/**
 * What happens after a push, once its refs are updated (GitLab's `PostReceive` →
 * `Git::ProcessRefChangesService` → `Git::BranchPushService` / `Git::TagPushService`):
 *
 * 1. the project's `last_activity_at` is now (and the first branch pushed to an empty repository
 *    becomes the default branch when the project's default branch was not pushed; that first
 *    default branch is protected, maintainers alone pushing and merging, as GitLab's default);
 * 2. each branch and tag change is worked out (`summary.ts`: the commits pushed, read with an
 *    early-stopping walk), then
 * 3. recorded as a contribution event in the project and user feeds (`feed.ts`), one bulk event
 *    instead when more than three refs of a kind are created, updated or deleted at once
 *    (GitLab's `push_event_activities_limit`), and
 * 4. put in the webhook outbox as a `push` or `tag_push` event (`webhooks/`), unless more than
 *    three refs of a kind share the action (`push_event_hooks_limit`: then no hook fires).
 *
 * 5. Last, the branch and tag changes are handed to the `onBranchesPushed` listeners (`listeners.ts`).
 *
 * Refs other than branches and tags are not reported. The push has already happened: a failure in
 * any of this is logged and never thrown.
 */
import { MAINTAINER } from '../../auth';
import { prepareHookEvent } from '../../hooks';
import type { Namespace } from '../../namespaces';
import { logger } from '../../platform/logger';
import { recordEvent, recordPushActivity, type Project } from '../../projects';
import type { User } from '../../users';
import { ZERO_OID } from '../git/protocol/advertise';
import type { ObjectReader } from '../git/walk';
import { BRANCH_PREFIX, TAG_PREFIX } from '../queries/revisions';
import type { Repository } from '../repository';
import { insertProtectedBranch } from '../store/protected-branches';
import type { Ref } from '../store/refs';
import { commitAttributes, describeCommits } from './commits';
import { bulkPushEvent, pushEvent } from './feed';
import { notifyBranchesPushed } from './listeners';
import { putHookEvent } from './store';
import { actionOf, effectiveDefaultBranch, peelToCommit, refTypeOf, summarizeRef, type PushedRef, type RefPush, type RefType, type SummaryContext } from './summary';
// The hook kinds' declaration and stored form, which putting their events needs.
import './webhooks/events';

export type { PushedRef } from './summary';
export { onBranchesPushed, type BranchesPushed, type BranchesPushedListener, type BranchUpdate, type TagUpdate } from './listeners';
export { pushHookPayloads } from './webhooks/builders';

/** GitLab's `push_event_activities_limit` (default): more refs of a kind and action at once make one bulk event. */
export const PUSH_EVENT_ACTIVITIES_LIMIT = 3;
/** GitLab's `push_event_hooks_limit` (default): more refs of a kind and action at once fire no hook. */
export const PUSH_EVENT_HOOKS_LIMIT = 3;

export interface AfterPushInput {
  repository: Repository;
  /** The project's namespace. */
  namespace: Namespace;
  /** Who pushed. */
  user: User;
  /** The refs the push changed, in the order the client sent them. */
  refs: PushedRef[];
  /** Every ref as it was before the push. */
  previousRefs: Ref[];
  /** Whether a ref is protected (a protected branch or tag), for the payloads' `ref_protected`; by default none is. */
  isProtected?: (ref: string) => boolean | Promise<boolean>;
  /** Git's push option `ci.skip` (a merge request's rebase with `skip_ci`): the listeners start no pipeline. */
  skipCi?: boolean;
}


/** Internal: runs one effect; a failure is logged (the push stands, and the other effects go on). */
async function safely(what: string, fields: Record<string, unknown>, effect: () => Promise<unknown>): Promise<void> {
  try {
    await effect();
  } catch (error) {
    logger.error(`after push: could not ${what}`, { ...fields, error });
  }
}

type PushAction = ReturnType<typeof actionOf>;

/** Internal: changes grouped by action, in the order each action first appears (Ruby's `group_by`). */
function byAction(changes: PushedRef[]): Map<PushAction, PushedRef[]> {
  const groups = new Map<PushAction, PushedRef[]>();
  for (const change of changes) groups.set(actionOf(change), [...(groups.get(actionOf(change)) ?? []), change]);
  return groups;
}

/** Internal: the refs after the push, the default branch then, and the one to record when the push chose it. */
function refsAfterPush(project: Project, previousRefs: Ref[], refs: PushedRef[]): SummaryContext & { chosenDefault?: string; firstDefault?: string } {
  const refsAfter = new Map(previousRefs.map((ref) => [ref.name, ref.oid]));
  for (const ref of refs) {
    if (ref.after === ZERO_OID) refsAfter.delete(ref.name);
    else refsAfter.set(ref.name, ref.after);
  }
  const branches = [...refsAfter.keys()].filter((name) => name.startsWith(BRANCH_PREFIX)).map((name) => name.slice(BRANCH_PREFIX.length));
  const defaultBranch = effectiveDefaultBranch(project.defaultBranch, branches);
  const wasEmpty = !previousRefs.some((ref) => ref.name.startsWith(BRANCH_PREFIX));
  const chosenDefault = wasEmpty && defaultBranch !== undefined && defaultBranch !== project.defaultBranch ? defaultBranch : undefined;
  return { refsAfter, defaultBranch, chosenDefault, firstDefault: wasEmpty ? defaultBranch : undefined };
}

/**
 * GitLab's default branch protection (the instance default, "fully protected"): the default
 * branch of a repository's first push is protected, maintainers alone pushing and merging,
 * unless a protection of that name exists already.
 */
async function protectDefaultBranch(projectId: number, branch: string): Promise<void> {
  await insertProtectedBranch(projectId, branch, { pushAccessLevel: MAINTAINER, mergeAccessLevel: MAINTAINER, allowForcePush: false });
}

interface RefOptions {
  read: ObjectReader;
  project: Project;
  input: AfterPushInput;
  context: SummaryContext;
  recordEvents: boolean;
  fireHooks: boolean;
}

/** Internal: the event and the hook event of one ref. */
async function reportRef(ref: PushedRef, options: RefOptions): Promise<void> {
  const { read, project, input, context } = options;
  const fields = { projectId: project.id, ref: ref.name, before: ref.before, after: ref.after };
  let summary: RefPush;
  try {
    summary = await summarizeRef(read, ref, context);
  } catch (error) {
    logger.error('after push: could not read what the push brought; no event or hook for this ref', { ...fields, error });
    return;
  }
  if (options.recordEvents) {
    await safely('record the push event', fields, () =>
      recordEvent(
        pushEvent({
          project,
          namespace: input.namespace,
          user: input.user,
          action: summary.action,
          ref: ref.name,
          before: ref.before,
          after: ref.after,
          newest: summary.commits[0] && commitAttributes(summary.commits[0]),
          totalCommitsCount: summary.total,
        }),
      ),
    );
  }
  if (options.fireHooks) {
    await safely('queue the push hook event', fields, async () => {
      const { put } = await prepareHookEvent({
        projectId: project.id,
        actorId: input.user.id,
        kind: summary.type === 'tag' ? 'tag_push' : 'push',
        action: summary.action,
        ref: ref.name,
        before: ref.before,
        after: ref.after,
        refProtected: (await input.isProtected?.(ref.name)) ?? false,
        checkoutSha: summary.checkoutSha,
        message: summary.message,
        // Oldest first, as GitLab's payloads list them.
        commits: await describeCommits(read, [...summary.commits].reverse()),
        totalCommitsCount: summary.total,
      });
      await putHookEvent(put);
    });
  }
}

/** Internal: the commit a pushed tag points at (through annotated tags), null when deleted or not a commit. */
async function taggedCommit(read: ObjectReader, oid: string): Promise<string | null> {
  if (oid === ZERO_OID) return null;
  try {
    return (await peelToCommit(read, oid))?.id ?? null;
  } catch (error) {
    logger.error('after push: could not read what a tag points at', { oid, error });
    return null;
  }
}

/**
 * Records what a push did, once its refs are updated: activity, feed events, webhook events.
 * Never throws.
 *
 * @example
 * await afterPush({ repository, namespace, user, refs: [{ name: 'refs/heads/main', before, after }], previousRefs });
 */
export async function afterPush(input: AfterPushInput): Promise<void> {
  const project = input.repository.project;
  try {
    const changes = input.refs.filter((ref) => refTypeOf(ref.name) !== undefined && ref.before !== ref.after);
    if (changes.length === 0) return;
    const { chosenDefault, firstDefault, ...context } = refsAfterPush(project, input.previousRefs, input.refs);
    await safely('record the push activity', { projectId: project.id }, () => recordPushActivity(project.id, chosenDefault));
    if (firstDefault) await safely('protect the default branch', { projectId: project.id }, () => protectDefaultBranch(project.id, firstDefault));
    const shown = chosenDefault ? { ...project, defaultBranch: chosenDefault } : project;
    const read: ObjectReader = (oid) => input.repository.read(oid);

    for (const type of ['branch', 'tag'] as RefType[]) {
      for (const [action, group] of byAction(changes.filter((ref) => refTypeOf(ref.name) === type))) {
        const bulk = group.length > PUSH_EVENT_ACTIVITIES_LIMIT;
        const fireHooks = group.length <= PUSH_EVENT_HOOKS_LIMIT;
        if (!bulk || fireHooks) {
          for (const ref of group) await reportRef(ref, { read, project: shown, input, context, recordEvents: !bulk, fireHooks });
        }
        if (bulk) {
          await safely('record the bulk push event', { projectId: project.id, action, type, refs: group.length }, () =>
            recordEvent(bulkPushEvent(shown, input.user, action, type, group.length)),
          );
        }
      }
    }
    const updates = changes
      .filter((ref) => refTypeOf(ref.name) === 'branch')
      .map((ref) => ({ branch: ref.name.slice(BRANCH_PREFIX.length), before: ref.before, after: ref.after }));
    const tags = await Promise.all(
      changes
        .filter((ref) => refTypeOf(ref.name) === 'tag')
        .map(async (ref) => ({ tag: ref.name.slice(TAG_PREFIX.length), before: ref.before, after: ref.after, commit: await taggedCommit(read, ref.after) })),
    );
    await notifyBranchesPushed({ project: shown, user: input.user, updates, tags, ...(input.skipCi ? { skipCi: true } : {}) });
  } catch (error) {
    logger.error('after push: failed; the push itself stands', { projectId: project.id, error });
  }
}
