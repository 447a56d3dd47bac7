/**
 * Release reads: a project's releases in `released_at` or `created_at` order (GitLab's
 * `ReleasesFinder`, newest first by default), one release by tag, and what presenting a page of
 * them needs besides the release items: their authors (one BatchGetItem), their commits (read from
 * the repository's packs) and their milestones (`../milestones.ts`, only when a release has any).
 */
import { getMany } from '../../platform/dynamo/batch';
import { queryCollection } from '../../platform/dynamo/query';
import { NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import type { ProjectSubject } from '../../auth';
import { projectFullPath } from '../../projects';
import { ObjectReader, openRepository, type CommitObject } from '../../repository';
import { userFromItem, userKeys, type User } from '../../users';
import { presentedMilestones, type PresentedMilestone } from '../milestones';
import { releaseCollections } from '../store/keys';
import { getRelease, releaseOfItem, type Release } from '../store/releases';

export interface ReleaseListOptions {
  orderBy?: 'released_at' | 'created_at';
  sort?: 'asc' | 'desc';
}

/** A project's releases as one index partition read page by page (never the whole list to sort it). */
export function releaseList(projectId: number, options: ReleaseListOptions): CollectionSource<Release> {
  const collection = options.orderBy === 'created_at' ? releaseCollections.byCreatedAt(projectId) : releaseCollections.byReleasedAt(projectId);
  return { collection, ascending: options.sort === 'asc', select: releaseOfItem };
}

/**
 * The project's latest release (GitLab's `ReleasesFinder` by `released_at`, newest first, the
 * release id breaking ties), upcoming releases included: one Query of one item (pattern 127).
 */
export async function latestRelease(projectId: number): Promise<Release | undefined> {
  for await (const item of queryCollection(releaseCollections.byReleasedAt(projectId), { ascending: false, pageSize: 1 })) return releaseOfItem(item);
  return undefined;
}

/** The release of a tag; `404 Not Found` (GitLab's `not_found!`) when there is none. */
export async function findReleaseOrNotFound(projectId: number, tag: string): Promise<Release> {
  const release = await getRelease(projectId, tag);
  if (!release) throw new NotFoundError();
  return release;
}

/** What the `Release` entity shows besides the release items: by id or sha. */
export interface ReleaseDetails {
  author: (id: number) => User | undefined;
  commit: (sha: string) => CommitObject | undefined;
  /** Presented: milestones are loaded only when a release has any. */
  milestone: (id: number) => PresentedMilestone | undefined;
}

/** Loads the authors, commits and milestones of `releases` (commits only when `withCommits`: the caller may read the code). */
export async function releaseDetails(subject: ProjectSubject, releases: readonly Release[], withCommits: boolean): Promise<ReleaseDetails> {
  const projectId = subject.project.id;
  const authorIds = [...new Set(releases.map((release) => release.authorId))];
  const milestoneIds = [...new Set(releases.flatMap((release) => release.milestoneIds))];
  const shas = withCommits ? [...new Set(releases.map((release) => release.sha))] : [];
  const reader = shas.length > 0 ? new ObjectReader(await openRepository(subject.project)) : undefined;
  const [users, milestones, commits] = await Promise.all([
    getMany(authorIds.map((id) => userKeys.user(id)), { consistent: false }),
    presentedMilestones(projectId, milestoneIds, projectFullPath(subject.namespace, subject.project)),
    Promise.all(shas.map((sha) => reader!.commit(sha))),
  ]);
  const usersById = new Map(users.map(userFromItem).map((user) => [user.id, user]));
  const commitsBySha = new Map(commits.flatMap((commit) => (commit ? [[commit.id, commit] as const] : [])));
  return { author: (id) => usersById.get(id), commit: (sha) => commitsBySha.get(sha), milestone: (id) => milestones.get(id) };
}
