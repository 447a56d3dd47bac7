/**
 * Release writes, as GitLab's `Releases::CreateService`, `UpdateService`, `DestroyService` and
 * `Releases::Links::*Service` do them, with their messages: one release per tag (409 `Release
 * already exists`), the tag created from `ref` when it does not exist yet (422 `Ref is not
 * specified` without one), milestones by title (400 `Milestone(s) not found: …`), link names,
 * URLs and direct asset paths unique within a release (400 with the model's messages). The route
 * has authorized the caller first.
 */
import type { ProjectSubject } from '../../auth';
import { ApiError, BadRequestError, ConflictError, NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import { createTag, ObjectReader, openRepository, TAG_PREFIX, type Repository, type TagRules } from '../../repository';
import type { User } from '../../users';
import { milestoneIdsOf } from '../milestones';
import { getRelease, insertRelease, newLinkIds, removeRelease, replaceRelease, type LinkType, type Release, type ReleaseLink } from '../store/releases';

/** A link as a client sends it (`assets[links][]`, `POST …/assets/links`). */
export interface LinkInput {
  name?: string;
  url?: string;
  /** `direct_asset_path` (or the deprecated `filepath`). */
  filepath?: string;
  linkType?: LinkType;
}

export interface CreateReleaseInput {
  tag: string;
  /** The project's protected tags, as the authorization read them (creating the tag checks them again). */
  protections?: TagRules;
  name?: string;
  description?: string;
  ref?: string;
  tagMessage?: string;
  releasedAt?: string;
  milestones?: string[];
  links: LinkInput[];
}

export interface UpdateReleaseInput {
  name?: string;
  description?: string;
  releasedAt?: string;
  milestones?: string[];
}

/** Most links a release holds (ours: a release and its links are one item of at most 400 KB). */
export const MAX_LINKS = 50;

/** GitLab's `Releases::Link::FILEPATH_REGEX`. */
const FILEPATH = /^\/(?:[-.\w]+\/?)*[\da-zA-Z]+$/;

/** Internal: the model's messages for a release's links (`Releases::Link` validations), `[]` when they are valid. */
function linkErrors(links: ReadonlyArray<Omit<ReleaseLink, 'id' | 'createdAt'>>): string[] {
  const errors = new Set<string>();
  if (links.length > MAX_LINKS) errors.add(`Links are too many (maximum is ${MAX_LINKS})`);
  const seen = { name: new Set<string>(), url: new Set<string>(), filepath: new Set<string>() };
  for (const link of links) {
    if (!link.name) errors.add("Name can't be blank");
    if (!link.url) errors.add("Url can't be blank");
    else if (!/^(https?|ftp):\/\/[^\s/]+/i.test(link.url)) errors.add('Url is blocked: Only allowed schemes are http, https, ftp');
    if (link.filepath !== undefined && link.filepath !== '' && !FILEPATH.test(link.filepath)) errors.add('Filepath is in an invalid format');
    if (link.filepath !== undefined && link.filepath.length > 128) errors.add('Filepath is too long (maximum is 128 characters)');
    for (const field of ['name', 'url', 'filepath'] as const) {
      const value = link[field];
      if (value === undefined || value === '') continue;
      if (seen[field].has(value)) errors.add(`${field.charAt(0).toUpperCase()}${field.slice(1)} has already been taken`);
      seen[field].add(value);
    }
  }
  return [...errors];
}

const linkFields = (input: LinkInput, previous?: ReleaseLink) => ({
  name: input.name ?? previous?.name ?? '',
  url: input.url ?? previous?.url ?? '',
  ...((input.filepath ?? previous?.filepath) !== undefined ? { filepath: input.filepath ?? previous?.filepath } : {}),
  linkType: input.linkType ?? previous?.linkType ?? ('other' as const),
});

/** Internal: the tag's ref, or the tag created from `ref` (GitLab's `ensure_tag`); a tag created meanwhile by someone else is used as found. */
async function ensureTag(subject: ProjectSubject, user: User, repository: Repository, input: CreateReleaseInput) {
  const existing = await repository.ref(`${TAG_PREFIX}${input.tag}`);
  if (existing) return existing;
  if (!input.ref) throw new ApiError(422, { message: 'Ref is not specified' });
  try {
    return (await createTag(subject, user, input.tag, input.ref, input.tagMessage, input.protections)).ref;
  } catch (error) {
    const raced = await repository.ref(`${TAG_PREFIX}${input.tag}`);
    if (raced) return raced;
    throw error;
  }
}

/** Creates the release of a tag (and the tag, from `ref`, when there is none). */
export async function createRelease(subject: ProjectSubject, user: User, input: CreateReleaseInput): Promise<Release> {
  const projectId = subject.project.id;
  if (await getRelease(projectId, input.tag)) throw new ConflictError('Release already exists');
  const milestoneIds = input.milestones ? await milestoneIdsOf(projectId, input.milestones) : [];
  const now = new Date().toISOString();
  const links = input.links.map((link) => ({ ...linkFields(link), createdAt: now }));
  const errors = linkErrors(links);
  if (errors.length > 0) throw new BadRequestError(`Validation failed: ${errors.map((error) => `Links ${error.charAt(0).toLowerCase()}${error.slice(1)}`).join(', ')}`);
  const repository = await openRepository(subject.project);
  const tag = await ensureTag(subject, user, repository, input);
  const commit = await new ObjectReader(repository).peelToCommit(tag.oid);
  if (!commit) throw new BadRequestError('Tag does not point at a commit');
  const result = await insertRelease({
    projectId,
    tag: input.tag,
    name: input.name ?? input.tag,
    description: input.description ?? null,
    sha: commit.id,
    authorId: user.id,
    createdAt: now,
    releasedAt: input.releasedAt ?? now,
    updatedAt: now,
    milestoneIds,
    links,
  });
  if (result === 'exists') throw new ConflictError('Release already exists');
  if (result === 'project_gone') throw new NotFoundError('Project');
  return result;
}

/** Internal: the release after `change`, written against the version read; 409 when it changed meanwhile. */
async function changeRelease(release: Release, change: (release: Release) => Omit<Release, 'version'>): Promise<Release> {
  const result = await replaceRelease(release, { ...change(release), updatedAt: new Date().toISOString() });
  if (result === 'conflict') throw new ConflictError('Release was changed meanwhile, please retry');
  return result;
}

/** Internal: 404 `Tag does not exist` when the release's tag is gone (deleted by a push: the API deletes the release with it). */
async function assertTagExists(subject: ProjectSubject, release: Release): Promise<void> {
  if (!(await (await openRepository(subject.project)).ref(`${TAG_PREFIX}${release.tag}`))) throw new ApiError(404, { message: 'Tag does not exist' });
}

/** Edits a release (GitLab's `UpdateService`): its tag must still exist; at least one field. */
export async function updateRelease(subject: ProjectSubject, release: Release, input: UpdateReleaseInput): Promise<Release> {
  await assertTagExists(subject, release);
  if (Object.values(input).every((value) => value === undefined)) throw new BadRequestError('params is empty');
  const milestoneIds = input.milestones ? await milestoneIdsOf(subject.project.id, input.milestones) : undefined;
  return changeRelease(release, ({ version: _version, ...current }) => ({
    ...current,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.releasedAt !== undefined ? { releasedAt: input.releasedAt } : {}),
    ...(milestoneIds ? { milestoneIds } : {}),
  }));
}

/** Deletes a release (its tag stays; GitLab's `DestroyService` wants it there); answers it as it was. */
export async function deleteRelease(subject: ProjectSubject, release: Release): Promise<Release> {
  await assertTagExists(subject, release);
  const removed = await removeRelease(release.projectId, release.tag);
  if (!removed) throw new ApiError(404, { message: 'Release does not exist' });
  return removed;
}

/** The release of a deleted tag goes too (GitLab's `Tags::DestroyService`); registered by the composition root. */
export async function removeReleaseOfTag(project: { id: number }, tag: string): Promise<void> {
  await removeRelease(project.id, tag);
}

/** One link of a release; `404 Not found` (GitLab's `find`) otherwise. */
export function findLinkOrNotFound(release: Release, linkId: number): ReleaseLink {
  const link = release.links.find((candidate) => candidate.id === linkId);
  if (!link) throw new RecordNotFoundError();
  return link;
}

/** Internal: 400 with the model's messages, as GitLab's link services answer (`message` is a list). */
function assertValidLinks(links: ReadonlyArray<Omit<ReleaseLink, 'id' | 'createdAt'>>): void {
  const errors = linkErrors(links);
  if (errors.length > 0) throw new ApiError(400, { message: errors });
}

/** Adds a link to a release. */
export async function addLink(release: Release, input: LinkInput): Promise<ReleaseLink> {
  const [id] = await newLinkIds(1);
  const link: ReleaseLink = { id, ...linkFields(input), createdAt: new Date().toISOString() };
  assertValidLinks([...release.links, link]);
  await changeRelease(release, ({ version: _version, ...current }) => ({ ...current, links: [...current.links, link] }));
  return link;
}

/** Edits a link of a release. */
export async function updateLink(release: Release, link: ReleaseLink, input: LinkInput): Promise<ReleaseLink> {
  const updated: ReleaseLink = { ...link, ...linkFields(input, link) };
  const links = release.links.map((candidate) => (candidate.id === link.id ? updated : candidate));
  assertValidLinks(links);
  await changeRelease(release, ({ version: _version, ...current }) => ({ ...current, links }));
  return updated;
}

/** Deletes a link of a release; answers it. */
export async function deleteLink(release: Release, link: ReleaseLink): Promise<ReleaseLink> {
  await changeRelease(release, ({ version: _version, ...current }) => ({ ...current, links: current.links.filter((candidate) => candidate.id !== link.id) }));
  return link;
}
