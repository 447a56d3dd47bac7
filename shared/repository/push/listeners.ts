/**
 * Who hears about branch and tag changes: listeners registered by the composition roots (the
 * merge-requests and CI features', which sit above this one and so cannot be imported here) are
 * called after every git push and every ref change made through the API (files and commits API,
 * branch and tag create and delete, a merge request's merge), once the refs moved and the push's
 * own effects are recorded. Branches and tags come in separate lists, so a listener that cares
 * for branches only (merge requests) reads `updates` alone. A listener's failure is logged; it
 * never fails the push.
 */
import { listenersOf, type Listener } from '../../platform/listeners';
import type { Project } from '../../projects';
import type { User } from '../../users';

/** One branch change: `before` is git's zero id for a created branch, `after` for a deleted one. */
export interface BranchUpdate {
  /** The branch name, without `refs/heads/`. */
  branch: string;
  before: string;
  after: string;
}

/**
 * One tag change: `before` is git's zero id for a created tag, `after` for a deleted one (both
 * may be annotated tag objects); `commit` is the commit `after` finally points at, null when the
 * tag is deleted or does not point at a commit.
 */
export interface TagUpdate {
  /** The tag name, without `refs/tags/`. */
  tag: string;
  before: string;
  after: string;
  commit: string | null;
}

export interface BranchesPushed {
  project: Project;
  /** Who pushed (or merged, or committed through the API). */
  user: User;
  /** The branch changes, in the order they were pushed (empty when only tags changed). */
  updates: BranchUpdate[];
  /** The tag changes, in the order they were pushed (empty when only branches changed). */
  tags: TagUpdate[];
  /** GitLab's push option `ci.skip` (a merge request's rebase with `skip_ci`): no pipeline is created. */
  skipCi?: boolean;
}

export type BranchesPushedListener = Listener<BranchesPushed>;

const branchesPushed = listenersOf<BranchesPushed>('branches pushed (the push stands)', (event) => ({ projectId: event.project.id }));

/**
 * Registers a listener (at module load, by a composition root); answers a function that removes it.
 *
 * @example
 * onBranchesPushed(({ project, updates }) => refreshMergeRequests(project, updates));
 */
export const onBranchesPushed = branchesPushed.on;

/** Calls every listener in turn (none when nothing changed); never throws. */
export async function notifyBranchesPushed(event: BranchesPushed): Promise<void> {
  if (event.updates.length === 0 && event.tags.length === 0) return;
  await branchesPushed.notify(event);
}

/** A push that moved a wiki's branch (`before`/`after` git's zero id when it was created/deleted). */
export interface WikiPushed {
  project: Project;
  /** Who pushed. */
  user: User;
  before: string;
  after: string;
}

export type WikiPushedListener = Listener<WikiPushed>;

const wikiPushed = listenersOf<WikiPushed>('wiki pushed (the push stands)', (event) => ({ projectId: event.project.id }));

/**
 * Registers a listener of pushes to a wiki's branch (the wikis feature's, through the composition
 * roots: it records the pages' events); answers a function that removes it.
 */
export const onWikiPushed = wikiPushed.on;

/** Calls every listener in turn; never throws. */
export async function notifyWikiPushed(event: WikiPushed): Promise<void> {
  await wikiPushed.notify(event);
}
