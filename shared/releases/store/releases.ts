/**
 * Releases: one item per tag in its project's partition (`PROJECT#<id>` / `RELEASE#<tag>`), so a
 * second release of a tag fails its write's condition and a deleted project takes its releases
 * with its partition. Its asset links live on the item (a release has few; their names and URLs
 * are unique per release, checked against the version read and written conditioned on it).
 * Indexed by `released_at` (GSI1) and `created_at` (GSI2) for the project's lists.
 *
 * The store answers results (`'exists'`, `'project_gone'`, `'conflict'`, `undefined`), never HTTP errors.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { getItem } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import type { Item } from '../../platform/dynamo/query';
import { journalWrite, transactOr, versionedPut } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { releaseIndexKeys, releaseKeys } from './keys';

export const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** An asset link of a release (GitLab's `Releases::Link`). */
export interface ReleaseLink {
  id: number;
  name: string;
  url: string;
  /** The direct asset path (`/binaries/app`), with its leading slash; absent when none. */
  filepath?: string;
  linkType: LinkType;
  createdAt: string;
}

export interface Release {
  id: number;
  projectId: number;
  /** The tag's name (the release's key). */
  tag: string;
  name: string;
  description: string | null;
  /** The commit the tag pointed at when the release was created. */
  sha: string;
  authorId: number;
  createdAt: string;
  releasedAt: string;
  updatedAt: string;
  /** Ids of the project's milestones the release is associated with. */
  milestoneIds: number[];
  links: ReleaseLink[];
  /** Optimistic lock: every write is conditioned on the version read. */
  version: number;
}

export type NewRelease = Omit<Release, 'id' | 'version' | 'links'> & { links: Array<Omit<ReleaseLink, 'id'>> };

const releaseFromItem = (item: Item): Release => entityFields(item) as Release;

function releaseToItem(release: Release): Item {
  return {
    ...releaseKeys.release(release.projectId, release.tag),
    ...releaseIndexKeys.byReleasedAt(release.projectId, release.releasedAt, release.id),
    ...releaseIndexKeys.byCreatedAt(release.projectId, release.createdAt, release.id),
    type: 'Release',
    ...release,
  };
}

/** Internal: items as the index lists present them. */
export const releaseOfItem = releaseFromItem;

/** The release of a tag, read consistently. */
export async function getRelease(projectId: number, tag: string): Promise<Release | undefined> {
  const item = await getItem(releaseKeys.release(projectId, tag));
  return item ? releaseFromItem(item) : undefined;
}

/** Ids for `count` new links. */
export async function newLinkIds(count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => nextId('release_links')));
}

/**
 * Writes a new release, while its project is live and no release of its tag exists: of several
 * creates of one tag at once, exactly one is written.
 */
export async function insertRelease(fields: NewRelease): Promise<Release | 'exists' | 'project_gone'> {
  const [id, linkIds] = await Promise.all([nextId('releases'), newLinkIds(fields.links.length)]);
  const release: Release = { ...fields, id, links: fields.links.map((link, i) => ({ ...link, id: linkIds[i] })), version: 1 };
  const failure = await transactOr(
    { project: projectIsLive(release.projectId), release: versionedPut(tableName(), releaseToItem(release)) },
    [
      ['project', 'project_gone' as const],
      ['release', 'exists' as const],
    ],
  );
  return failure ?? release;
}

/** Replaces a release read at `previous.version` with `next`; `'conflict'` when it changed or went meanwhile. */
export async function replaceRelease(previous: Release, next: Omit<Release, 'version'>): Promise<Release | 'conflict'> {
  const release: Release = { ...next, version: previous.version + 1 };
  const failure = await transactOr({ release: versionedPut(tableName(), releaseToItem(release), previous.version, releaseToItem(previous)) }, [['release', 'conflict' as const]]);
  return failure ?? release;
}

/** Deletes the release of a tag; answers what was deleted, `undefined` when there was none. */
export async function removeRelease(projectId: number, tag: string): Promise<Release | undefined> {
  const result = await db().send(new DeleteCommand({ TableName: tableName(), Key: releaseKeys.release(projectId, tag), ReturnValues: 'ALL_OLD' }));
  if (!result.Attributes) return undefined;
  await journalWrite([], [result.Attributes]);
  return releaseFromItem(result.Attributes);
}
