/**
 * Commit reads of the commits API: a page of history (`git log` with GitLab's filters), one commit
 * by any revision, its diff against its first parent, its stats, and the branches and tags that
 * contain it.
 */
import type { Project } from '../../projects';
import { NotFoundError } from '../../platform/http/errors';
import type { CommitStats } from '../presenters/commits';
import { revList } from '../git/walk';
import { diffStats, diffTrees, type FileChange } from './diff';
import type { CommitObject, ObjectReader } from './objects';
import { BRANCH_PREFIX, TAG_PREFIX, resolveCommit } from './revisions';

/** What a page of history shows (`git log`'s options of the same meaning). */
export interface LogFilters {
  /** Only commits changing this file or directory (with git's default history simplification). */
  path?: string;
  /** Only commits committed at or after / at or before (seconds since the epoch). */
  since?: number;
  until?: number;
  /** `--author`: matched against `Name <email>` (a regular expression, or the text itself). */
  author?: string;
  firstParent?: boolean;
  /** `topo`: no parent before all its children (`--topo-order`); otherwise by committer date. */
  order?: 'default' | 'topo';
}

export interface CommitListFilters extends LogFilters {
  refName?: string;
  all?: boolean;
}

export interface LogOptions extends LogFilters {
  /** The commits to start from (`git log <tip>...`). */
  tips: string[];
  /** Commits to skip, then how many to return. */
  offset: number;
  limit: number;
}

/**
 * One page of a project's history: from `ref_name` (the default branch when not given), or from
 * every branch and tag (`all`); an unknown ref lists nothing, as in GitLab. Reads only as far back
 * as the page reaches (in the default order).
 */
export async function listCommits(reader: ObjectReader, project: Project, filters: CommitListFilters, page: { offset: number; limit: number }): Promise<CommitObject[]> {
  let tips: string[];
  if (filters.all) {
    tips = (await reader.repository.refs()).filter((ref) => ref.name.startsWith(BRANCH_PREFIX) || ref.name.startsWith(TAG_PREFIX)).map((ref) => ref.oid);
  } else {
    const commit = await resolveCommit(reader, project, filters.refName || project.defaultBranch);
    tips = commit ? [commit.id] : [];
  }
  return logCommits(reader, { tips, ...filters, offset: page.offset, limit: page.limit });
}

/** Internal: an `--author` matcher (git's regular expressions are close enough to JavaScript's). */
function authorMatcher(author: string | undefined): ((commit: CommitObject) => boolean) | undefined {
  if (author === undefined || author === '') return undefined;
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(author);
  } catch {
    pattern = undefined;
  }
  return (commit) => {
    const line = `${commit.author.name} <${commit.author.email}>`;
    return pattern ? pattern.test(line) : line.includes(author);
  };
}

/**
 * `git log` from some tips (tags peeled): the commits after `offset` matches, at most `limit`. In
 * the default order it reads only as far back as the page reaches; `--topo-order` needs the whole
 * history first, as git does without a commit-graph.
 */
export async function logCommits(reader: ObjectReader, options: LogOptions): Promise<CommitObject[]> {
  const page: CommitObject[] = [];
  if (options.limit <= 0) return page;
  const byAuthor = authorMatcher(options.author);
  const walk = { include: options.tips, since: options.since, firstParent: options.firstParent, path: options.path, order: options.order === 'topo' ? ('topo' as const) : ('date' as const) };
  let skipped = 0;
  for await (const oid of revList(reader.read, walk)) {
    const commit = (await reader.commit(oid))!;
    if (options.until !== undefined && commit.committer.timestamp > options.until) continue;
    if (byAuthor && !byAuthor(commit)) continue;
    if (skipped < options.offset) skipped++;
    else if (page.push(commit) >= options.limit) break;
  }
  return page;
}

/** One author of a history (GitLab's `Gitlab::Contributor`). */
export interface Contributor {
  name: string;
  email: string;
  commits: number;
}

/** How many commits GitLab's `Repository#contributors` reads (`git log --no-merges --max-count=2000`). */
export const CONTRIBUTORS_COMMITS = 2_000;

/**
 * The authors of the newest {@link CONTRIBUTORS_COMMITS} non-merge commits from `tip`, by email
 * (the name of each email's newest commit), with their commit counts, in GitLab's order: by
 * `name`, `email` or `commits`, `asc` or `desc` (ties in the order met, newest first).
 */
export async function listContributors(reader: ObjectReader, tip: string, orderBy: 'name' | 'email' | 'commits', sort: 'asc' | 'desc'): Promise<Contributor[]> {
  const byEmail = new Map<string, Contributor>();
  let read = 0;
  for await (const oid of revList(reader.read, { include: [tip] })) {
    const commit = (await reader.commit(oid))!;
    if (commit.parents.length > 1) continue;
    const { email, name } = commit.author;
    const contributor = byEmail.get(email) ?? byEmail.set(email, { name, email, commits: 0 }).get(email)!;
    if (contributor.name === '') contributor.name = name;
    contributor.commits++;
    if (++read >= CONTRIBUTORS_COMMITS) break;
  }
  const direction = sort === 'desc' ? -1 : 1;
  const compare = (a: Contributor, b: Contributor) =>
    orderBy === 'commits' ? a.commits - b.commits : a[orderBy] < b[orderBy] ? -1 : a[orderBy] > b[orderBy] ? 1 : 0;
  return [...byEmail.values()].sort((a, b) => direction * compare(a, b));
}

/** The newest commit from `tip` that changed `path` (`git log -1 -- <path>`), or `undefined`. */
export async function lastCommitForPath(reader: ObjectReader, tip: string, path: string): Promise<CommitObject | undefined> {
  return (await logCommits(reader, { tips: [tip], path, offset: 0, limit: 1 }))[0];
}

/** A commit by any revision; `404 Commit Not Found` otherwise (also in an empty repository). */
export async function findCommitOrNotFound(reader: ObjectReader, project: Project, revision: string): Promise<CommitObject> {
  const commit = await resolveCommit(reader, project, revision);
  if (!commit) throw new NotFoundError('Commit');
  return commit;
}

/** The tree a commit is compared with: its first parent's, or none for a root commit. */
async function parentTree(reader: ObjectReader, commit: CommitObject): Promise<string | null> {
  const parent = commit.parents[0] ? await reader.commitLinks(commit.parents[0]) : undefined;
  return parent?.tree ?? null;
}

/** A commit's line counts against its first parent. */
export async function commitStats(reader: ObjectReader, commit: CommitObject): Promise<CommitStats> {
  return diffStats(reader, await parentTree(reader, commit), commit.tree);
}

/** The files a commit changed against its first parent. */
export async function commitChanges(reader: ObjectReader, commit: CommitObject): Promise<FileChange[]> {
  return diffTrees(reader, await parentTree(reader, commit), commit.tree);
}

/**
 * The branches, then the tags, whose history contains a commit, in name order; at most `limit`
 * (GitLab's `ContainingCommitFinder` reads only as many as the page needs, plus one).
 */
export async function refsContaining(
  reader: ObjectReader,
  commit: CommitObject,
  type: 'branch' | 'tag' | 'all',
  limit: number,
): Promise<Array<{ type: 'branch' | 'tag'; name: string }>> {
  const found: Array<{ type: 'branch' | 'tag'; name: string }> = [];
  const kinds = [
    { type: 'branch' as const, prefix: BRANCH_PREFIX },
    { type: 'tag' as const, prefix: TAG_PREFIX },
  ].filter((kind) => type === 'all' || kind.type === type);
  for (const kind of kinds) {
    for (const ref of await reader.repository.refs(kind.prefix)) {
      if (found.length >= limit) return found;
      const tip = await reader.peelToCommit(ref.oid);
      if (tip && (await reader.isAncestor(commit.id, tip.id))) found.push({ type: kind.type, name: ref.name.slice(kind.prefix.length) });
    }
  }
  return found;
}
