/**
 * Commit reads of the commits API: a page of history (`git log` with GitLab's filters), one commit
 * by any revision, its diff against its first parent, its stats, and the branches and tags that
 * contain it.
 */
import type { Project } from '../../projects';
import { NotFoundError } from '../../platform/http/errors';
import type { CommitStats } from '../presenters/commits';
import { diffStats, diffTrees, patchOf, type FileChange, type FilePatch } from './diff';
import { isAncestor, logCommits, type LogOptions } from './history';
import type { CommitObject, ObjectReader } from './objects';
import { BRANCH_PREFIX, TAG_PREFIX, resolveCommit } from './revisions';

export interface CommitListFilters {
  refName?: string;
  all?: boolean;
  path?: string;
  since?: number;
  until?: number;
  author?: string;
  firstParent?: boolean;
  order?: 'default' | 'topo';
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
    const commits: string[] = [];
    for (const tip of tips) {
      const commit = await reader.peelToCommit(tip);
      if (commit) commits.push(commit.id);
    }
    tips = commits;
  } else {
    const commit = await resolveCommit(reader, project, filters.refName || project.defaultBranch);
    tips = commit ? [commit.id] : [];
  }
  if (tips.length === 0) return [];
  const options: LogOptions = { tips, ...filters, offset: page.offset, limit: page.limit };
  return logCommits(reader, options);
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

/** The files a commit changed against its first parent, each with its diff. */
export async function commitDiffs(reader: ObjectReader, commit: CommitObject): Promise<Array<{ change: FileChange; patch: FilePatch }>> {
  const changes = await diffTrees(reader, await parentTree(reader, commit), commit.tree);
  const diffs: Array<{ change: FileChange; patch: FilePatch }> = [];
  for (const change of changes) diffs.push({ change, patch: await patchOf(reader, change) });
  return diffs;
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
      if (tip && (await isAncestor(reader, commit.id, tip.id))) found.push({ type: kind.type, name: ref.name.slice(kind.prefix.length) });
    }
  }
  return found;
}
