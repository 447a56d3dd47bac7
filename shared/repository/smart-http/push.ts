/**
 * A push as git's receive-pack handles it, once the request is parsed: store the pack, check each
 * command (GitLab's `Gitlab::Checks`: access, protected branches, protected tags, fast-forward),
 * move the refs with compare-and-swap (all in one transaction for an atomic push), then run the
 * push's effects. Answers the status of every command, for report-status.
 */
import type { ProjectSubject } from '../../auth';
import type { Logger } from '../../platform/logger';
import type { User } from '../../users';
import { parseTag } from '../git/objects/parse';
import { PackError } from '../git/pack/errors';
import { isAncestor, MissingObjectError, objectsToSend } from '../git/walk';
import { isValidRefFormat } from '../commands/ref-names';
import { tagCheck } from '../commands/refs';
import { afterPush } from '../push';
import { notifyWikiPushed } from '../push/listeners';
import { BRANCH_PREFIX } from '../queries/revisions';
import { BranchRules, RefRules, TagRules } from '../queries/protection';
import { WIKI_BRANCH, ZERO_OID, type Repository } from '../repository';
import { MAX_ATOMIC_REF_UPDATES, updateRef, updateRefsAtomically, type Ref } from '../store/refs';

/** One command of a push: `old new refname`. */
export interface PushCommand {
  oldOid: string;
  newOid: string;
  name: string;
}

export interface PushOutcome {
  /** `ok`, or the reason of the `unpack` failure. */
  unpack: 'ok' | string;
  /** Per command, in request order: undefined when applied, else the `ng` reason. */
  results: Array<{ name: string; error?: string }>;
}

export interface PushContext {
  repository: Repository;
  subject: ProjectSubject;
  user: User;
  log: Logger;
  /** Progress messages for the client (side band 2). */
  progress?: (message: string) => void;
}

const BRANCH = 'refs/heads/';
const TAG = 'refs/tags/';

/**
 * Refs the service keeps for itself (GitLab's `receive.hideRefs`): merge request heads and the
 * like are fetched as any ref, but a push neither sees nor changes them.
 */
const HIDDEN_FROM_PUSH = ['refs/merge-requests/', 'refs/pipelines/', 'refs/keep-around/', 'refs/environments/', 'refs/tmp/'];

export const isHiddenFromPush = (name: string): boolean => HIDDEN_FROM_PUSH.some((prefix) => name.startsWith(prefix));

/** GitLab's messages (`Gitlab::Checks::BranchCheck`; the tags' are `TAG_CHECK_ERRORS`, `commands/refs.ts`). */
export const PUSH_ERRORS = {
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  forcePushProtected: 'You are not allowed to force push code to a protected branch on this project.',
  deleteProtected: 'You can only delete protected branches using the web interface.',
  deleteDefault: 'The default branch of a project cannot be deleted.',
} as const;

/** Why one command may not run, or undefined (the ref's current value is checked by the write itself). */
async function refuse(context: PushContext, { branches: rules, tags }: RefRules, command: PushCommand): Promise<string | undefined> {
  const { user, subject, repository } = context;
  const { name, oldOid, newOid } = command;
  if (!isValidRefFormat(name)) return 'funny refname';
  if (isHiddenFromPush(name)) return 'deny updating a hidden ref';
  const deleting = newOid === ZERO_OID;
  if (!deleting) {
    const object = await repository.read(newOid);
    if (!object) return 'missing necessary objects';
    if (name.startsWith(BRANCH) && object.type !== 'commit') return 'branch must point at a commit';
  }
  if (name.startsWith(BRANCH) && deleting && name.slice(BRANCH.length) === repository.headBranch && oldOid !== ZERO_OID) return PUSH_ERRORS.deleteDefault;
  // A wiki has no protected branches or tags: whoever may write to the wiki may push (GitLab's `GitAccessWiki`).
  if (repository.kind === 'wiki') return undefined;
  if (name.startsWith(BRANCH)) {
    const branch = name.slice(BRANCH.length);
    if (deleting) {
      return rules.canDelete(user, subject, branch) ? undefined : rules.isProtected(branch) ? PUSH_ERRORS.deleteProtected : 'permission denied';
    }
    if (!rules.canPush(user, subject, branch)) return PUSH_ERRORS.pushProtected;
    const protection = rules.protection(branch);
    if (protection && !protection.allowForcePush && oldOid !== ZERO_OID && !(await isAncestor((oid) => repository.read(oid), oldOid, newOid).catch(() => false))) {
      return PUSH_ERRORS.forcePushProtected;
    }
    return undefined;
  }
  if (name.startsWith(TAG)) {
    return tagCheck({ user, subject }, tags, name.slice(TAG.length), oldOid === ZERO_OID ? null : oldOid, deleting ? null : newOid, false);
  }
  return undefined;
}

/**
 * Whether every object reachable from the new tips is stored, walking only what the push added
 * (git's connectivity check: `rev-list --objects <new> --not <existing refs>`), unless the tips
 * are in a self-contained pack the push stored.
 */
async function connected(repository: Repository, tips: string[], existing: Ref[]): Promise<boolean> {
  if (tips.length === 0) return true;
  // The tips are in the pack just received, which holds everything its objects refer to (a whole
  // history pushed to an empty repository): nothing to walk, as git fetch does for such packs
  // (`index-pack --check-self-contained-and-connected`).
  if (repository.reachableStored(tips)) return true;
  try {
    await objectsToSend({ read: (oid) => repository.read(oid), wants: tips, haves: existing.map((ref) => ref.oid) });
    return true;
  } catch (error) {
    if (error instanceof MissingObjectError) return false;
    throw error;
  }
}

/** The object an annotated tag finally points at; undefined for anything else. */
async function peel(repository: Repository, oid: string): Promise<string | undefined> {
  let object = await repository.read(oid);
  let target: string | undefined;
  for (let depth = 0; object?.type === 'tag' && depth < 10; depth++) {
    target = parseTag(object.body).object;
    object = await repository.read(target);
  }
  return target;
}

export async function push(context: PushContext, commands: PushCommand[], pack: Buffer | undefined, options: { atomic: boolean }): Promise<PushOutcome> {
  const { repository, log } = context;
  const previousRefs = await repository.refs();
  const failAll = (reason: string): PushOutcome => ({ unpack: reason, results: commands.map(({ name }) => ({ name, error: 'unpacker error' })) });

  if (pack && pack.length > 0) {
    try {
      let reported = 0;
      await repository.receivePack(pack, (done, total) => {
        const percent = Math.floor((done * 100) / total);
        if (percent >= reported + 10 || done === total) {
          reported = percent;
          context.progress?.(`Resolving objects: ${String(percent).padStart(3)}% (${done}/${total})${done === total ? ', done.\n' : '\r'}`);
        }
      });
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      log.warn('push refused: bad pack', { error: error.message });
      return failAll(error.message);
    }
  }

  const rules = repository.kind === 'wiki' ? new RefRules(new BranchRules([]), new TagRules([])) : await RefRules.load(repository.project.id);
  const reasons = await Promise.all(commands.map((command) => refuse(context, rules, command)));
  const newTips = commands.filter((command, i) => !reasons[i] && command.newOid !== ZERO_OID).map((command) => command.newOid);
  if (!(await connected(repository, newTips, previousRefs))) {
    return { unpack: 'ok', results: commands.map(({ name }, i) => ({ name, error: reasons[i] ?? 'missing necessary objects' })) };
  }

  const results: PushOutcome['results'] = commands.map(({ name }, i) => ({ name, error: reasons[i] }));
  const updates = await Promise.all(
    commands.map(async (command) => ({
      name: command.name,
      oldOid: command.oldOid === ZERO_OID ? null : command.oldOid,
      newOid: command.newOid === ZERO_OID ? null : command.newOid,
      peeled: command.newOid === ZERO_OID ? undefined : await peel(repository, command.newOid),
    })),
  );
  if (options.atomic) {
    if (reasons.some(Boolean)) {
      for (const result of results) result.error ??= 'atomic push failure';
    } else if (updates.length > MAX_ATOMIC_REF_UPDATES) {
      for (const result of results) result.error = `atomic push of more than ${MAX_ATOMIC_REF_UPDATES} refs`;
    } else {
      const stale = await updateRefsAtomically(repository.project.id, updates, repository.kind);
      if (stale.length) for (const result of results) result.error = stale.includes(result.name) ? 'failed to update ref' : 'atomic push failure';
    }
  } else {
    await Promise.all(
      updates.map(async (update, i) => {
        if (results[i].error) return;
        if (!(await updateRef(repository.project.id, update, repository.kind))) results[i].error = 'failed to update ref';
      }),
    );
  }

  const applied = commands.filter((_, i) => !results[i].error).map((command) => ({ name: command.name, before: command.oldOid, after: command.newOid }));
  // A wiki push changes pages only: no push event, hook or pipeline of the project's repository;
  // the wikis feature records the pages its branch's move changed.
  const wikiBranch = repository.kind === 'wiki' ? applied.find((ref) => ref.name === `${BRANCH_PREFIX}${WIKI_BRANCH}`) : undefined;
  if (wikiBranch) await notifyWikiPushed({ project: repository.project, user: context.user, before: wikiBranch.before, after: wikiBranch.after });
  if (applied.length > 0 && repository.kind === 'project') {
    await afterPush({
      repository,
      namespace: context.subject.namespace,
      user: context.user,
      refs: applied,
      previousRefs,
      isProtected: (ref) => rules.protectsRef(ref),
    });
  }
  return { unpack: 'ok', results };
}
