/**
 * What a push did to one ref, as GitLab's `Git::BranchHooksService` and `Git::TagHooksService`
 * work it out: the kind of ref and the action, the commit to check out, and the commits pushed.
 *
 * - A branch updated: the commits reachable from `after` and not from `before`.
 * - A branch created: the commits not reachable from the default branch; for the default branch
 *   itself (the first push to an empty repository), its whole history.
 * - A branch deleted: none.
 * - A tag created or moved: the commit it leads to (none when it leads to no commit), and an
 *   annotated tag's message; a tag deleted: nothing.
 *
 * Refs outside `refs/heads/` and `refs/tags/` are not pushes GitLab reports.
 */
import { parseCommit, parseTag, type Commit } from '../git/objects/parse';
import { ZERO_OID } from '../git/protocol/advertise';
import { cachingReader, countReachableCommits, ObjectGraph, revList, type ObjectReader } from '../git/walk';
import { BRANCH_PREFIX, TAG_PREFIX } from '../queries/revisions';
import type { PushAction } from './webhooks/events';

/** A ref a push changed: its id before and after (40 zeros when it was created / deleted). */
export interface PushedRef {
  name: string;
  before: string;
  after: string;
}

export type RefType = 'branch' | 'tag';

/** A commit with its id. */
export interface WalkedCommit {
  id: string;
  commit: Commit;
}

/** How many commits payloads show (the newest; GitLab's `Gitlab::DataBuilder::Push`). */
export const PAYLOAD_COMMITS = 20;

export interface RefPush {
  ref: PushedRef;
  type: RefType;
  action: PushAction;
  /** The commit the ref leads to; null when deleted, or for a tag that leads to no commit. */
  checkoutSha: string | null;
  /** An annotated tag's message (`''` for a lightweight tag); null for branches and deleted tags. */
  message: string | null;
  /** The newest commits pushed, newest first, at most {@link PAYLOAD_COMMITS}. */
  commits: WalkedCommit[];
  /** How many commits were pushed in all. */
  total: number;
}

/** `branch` or `tag`, or undefined for any other ref. */
export function refTypeOf(name: string): RefType | undefined {
  if (name.startsWith(BRANCH_PREFIX)) return 'branch';
  if (name.startsWith(TAG_PREFIX)) return 'tag';
  return undefined;
}

/** GitLab's action of a ref change (`Git::ProcessRefChangesService#change_action`). */
export function actionOf(ref: PushedRef): PushAction {
  if (ref.before === ZERO_OID) return 'created';
  if (ref.after === ZERO_OID) return 'removed';
  return 'pushed';
}

/**
 * The default branch once the refs are `branches` (short names): the project's when it exists,
 * else the one Gitaly would answer for a HEAD that names no branch: the only branch, else `main`,
 * else `master`, else the first in byte order. Undefined when there is no branch.
 */
export function effectiveDefaultBranch(projectDefault: string, branches: string[]): string | undefined {
  if (branches.includes(projectDefault)) return projectDefault;
  if (branches.length <= 1) return branches[0];
  if (branches.includes('main')) return 'main';
  if (branches.includes('master')) return 'master';
  return [...branches].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))[0];
}

/**
 * The commit an object id names, following annotated tags (`undefined` when it names no commit, or
 * an object that cannot be read).
 */
export async function peelToCommit(read: ObjectReader, oid: string): Promise<WalkedCommit | undefined> {
  const graph = new ObjectGraph(read);
  const peeled = await graph.peel(oid);
  const object = peeled?.type === 'commit' ? await graph.read(peeled.oid) : undefined;
  return object && { id: peeled!.oid, commit: parseCommit(object.body) };
}

/**
 * The commits reachable from `tip` and from none of `excluded` (`git rev-list <tip> --not
 * <excluded...>`; commits or tags, ids that name nothing readable are ignored): the newest `limit`
 * of them, newest first, and their number. A short push to a long branch reads a few commits.
 *
 * @example
 * const { commits, total } = await pushedCommits(repository.read.bind(repository), after, [before], 20);
 */
export async function pushedCommits(read: ObjectReader, tip: string, excluded: string[], limit: number): Promise<{ commits: WalkedCommit[]; total: number }> {
  const cached = cachingReader(read);
  const ids: string[] = [];
  // Nothing excluded (a new default branch: its whole history): the first commits come from a
  // lazy walk that stops there, and the total from a count of the graph (`rev-list --count`).
  const everything = excluded.length === 0;
  for await (const oid of revList(cached, { include: [tip], exclude: excluded, ...(everything ? { limit } : {}) })) ids.push(oid);
  const commits: WalkedCommit[] = [];
  for (const id of ids.slice(0, limit)) commits.push({ id, commit: parseCommit((await cached(id))!.body) });
  const total = everything && ids.length === limit ? await countReachableCommits(read, (await peelToCommit(read, tip))?.id ?? tip) : ids.length;
  return { commits, total };
}

/** Internal: an annotated tag's message (after its headers), or `''` for a lightweight tag. */
async function tagMessage(read: ObjectReader, oid: string): Promise<string> {
  const object = await read(oid);
  return object?.type === 'tag' ? parseTag(object.body).message : '';
}

export interface SummaryContext {
  /** The default branch after the push (short name). */
  defaultBranch: string | undefined;
  /** Every ref after the push, by name. */
  refsAfter: Map<string, string>;
}

/**
 * What the push did to `ref`, reading only the commits it needs.
 *
 * @example
 * const summary = await summarizeRef(read, { name: 'refs/heads/main', before, after }, { defaultBranch: 'main', refsAfter });
 */
export async function summarizeRef(read: ObjectReader, ref: PushedRef, context: SummaryContext): Promise<RefPush> {
  const type = refTypeOf(ref.name);
  if (!type) throw new Error(`not a branch or tag: ${ref.name}`);
  const action = actionOf(ref);
  const none = { ref, type, action, checkoutSha: null, message: null, commits: [], total: 0 };
  if (action === 'removed') return none;

  if (type === 'tag') {
    const target = await peelToCommit(read, ref.after);
    const message = await tagMessage(read, ref.after);
    return target
      ? { ...none, checkoutSha: target.id, message, commits: [target], total: 1 }
      : { ...none, message };
  }

  const branch = ref.name.slice(BRANCH_PREFIX.length);
  let excluded: string[];
  if (action === 'pushed') excluded = [ref.before];
  else if (branch === context.defaultBranch) excluded = [];
  else {
    const defaultTip = context.defaultBranch === undefined ? undefined : context.refsAfter.get(BRANCH_PREFIX + context.defaultBranch);
    excluded = defaultTip ? [defaultTip] : [];
  }
  const { commits, total } = await pushedCommits(read, ref.after, excluded, PAYLOAD_COMMITS);
  return { ...none, checkoutSha: ref.after, commits, total };
}
