/**
 * GitLab's `Release` and `Releases::Link` entities. What needs `download_code` is left out for
 * callers who may not read the code (guests of a private project): `tag_name`, `commit`,
 * `commit_path`, `tag_path`, the archive `sources` (and their share of `assets.count`) and
 * `evidences`. `edit_url` only for callers who may edit the release. Milestones are presented
 * with GitLab's `Milestone` fields (not `MilestoneWithStats`' `issue_stats`). Evidences are
 * never collected: `[]`. `description_html` (asked with `include_html_description`) is the
 * description escaped into paragraphs: there is no Markdown renderer. `sources` are the repository
 * API's archive URLs (`GET /projects/:id/repository/archive.<format>?sha=<tag>`), not GitLab's
 * web archive paths; `tar.bz2` is listed as GitLab lists it, though that archive is not served.
 *
 * Cost: everything comes from the release item, except the author, commit and milestones, which
 * the caller loads for a whole page at once (`queries/releases.ts`, `releaseDetails`).
 */
import { can, type ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { projectFullPath, webUrlOf } from '../../projects';
import { presentCommit } from '../../repository';
import { presentUserPublic, type User } from '../../users';
import type { ReleaseDetails } from '../queries/releases';
import type { Release, ReleaseLink } from '../store/releases';

/** GitLab's `Releases::Source` formats, in its order. */
const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const;

export interface ReleasePresentation {
  subject: ProjectSubject;
  user: User | null;
  details: ReleaseDetails;
  includeHtmlDescription?: boolean;
}

const projectWebUrl = (subject: ProjectSubject) => webUrlOf(projectFullPath(subject.namespace, subject.project));

/** GitLab's `Releases::Link` entity: `direct_asset_url` is the release's permanent link when a path is set. */
export function presentLink(link: ReleaseLink, release: Release, subject: ProjectSubject) {
  const webUrl = projectWebUrl(subject);
  return {
    id: link.id,
    name: link.name,
    url: link.url,
    direct_asset_url: link.filepath ? `${webUrl}/-/releases/${encodeURIComponent(release.tag)}/downloads${link.filepath}` : link.url,
    external: !link.url.startsWith(webUrl),
    link_type: link.linkType,
  };
}

/** Links in GitLab's `sorted` order: newest first. */
export const sortedLinks = (release: Release): ReleaseLink[] => [...release.links].sort((a, b) => b.id - a.id);

/** Internal: the description as HTML paragraphs, escaped. */
function descriptionHtml(description: string | null): string {
  if (!description) return '';
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return description
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

export function presentRelease(release: Release, { subject, user, details, includeHtmlDescription }: ReleasePresentation) {
  const downloadCode = can(user, 'download_code', subject);
  const webUrl = projectWebUrl(subject);
  const fullPath = projectFullPath(subject.namespace, subject.project);
  const tag = encodeURIComponent(release.tag);
  const author = details.author(release.authorId);
  const commit = downloadCode ? details.commit(release.sha) : undefined;
  const milestones = release.milestoneIds.flatMap((id) => details.milestone(id) ?? []);
  const archive = `${config().externalUrl}/api/v4/projects/${subject.project.id}/repository/archive`;
  const sources = SOURCE_FORMATS.map((format) => ({ format, url: `${archive}.${format}?sha=${tag}` }));
  const links = sortedLinks(release).map((link) => presentLink(link, release, subject));
  return {
    name: release.name,
    ...(downloadCode ? { tag_name: release.tag } : {}),
    description: release.description,
    ...(includeHtmlDescription ? { description_html: descriptionHtml(release.description) } : {}),
    created_at: release.createdAt,
    released_at: release.releasedAt,
    ...(author ? { author: presentUserPublic(author) } : {}),
    ...(downloadCode ? { commit: commit ? presentCommit(commit, { projectWebUrl: webUrl }) : null } : {}),
    upcoming_release: release.releasedAt > new Date().toISOString(),
    ...(milestones.length > 0 && can(user, 'read_release', subject) ? { milestones } : {}),
    ...(downloadCode ? { commit_path: `/${fullPath}/-/commit/${release.sha}`, tag_path: `/${fullPath}/-/tags/${tag}` } : {}),
    assets: {
      count: links.length + (downloadCode ? sources.length : 0),
      ...(downloadCode ? { sources } : {}),
      links,
    },
    ...(downloadCode ? { evidences: [] } : {}),
    _links: {
      self: `${webUrl}/-/releases/${tag}`,
      ...(can(user, 'update_release', subject) ? { edit_url: `${webUrl}/-/releases/${tag}/edit` } : {}),
    },
  };
}
