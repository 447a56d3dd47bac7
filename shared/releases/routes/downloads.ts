/**
 * Permanent links (GitLab's `lib/api/releases.rb`, 15.4): the latest release,
 * `GET …/releases/permalink/latest[/<suffix>]`, redirects (302) to that release's API path with the
 * suffix and the query kept (but `order_by`, which GitLab keeps for itself: "latest" is always by
 * `released_at`; a `private_token` parameter kept too); a release asset, `GET …/releases/:tag_name/downloads/<direct asset path>`,
 * redirects to the URL of the release's link of that path. Both need `read_release` and
 * `download_code`, as GitLab's `authorize_read_code!`; no release is `404 Not Found`, no link of
 * the path `404 Not found` (GitLab's `find_by_filepath!`).
 *
 * Cost: the latest release is one Query of one index item; a link is found on its release item
 * (at most 50 links), one GetItem.
 */
import { authorize } from '../../auth';
import { config } from '../../platform/config';
import { NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import type { HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { PageLinkBase } from '../../platform/http/pagination';
import type { Authentication } from '../../platform/http/context';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { findReleaseOrNotFound, latestRelease } from '../queries/releases';
import { findReleasesOrNotFound, JOB_TOKEN_ALLOWED } from './releases';
import { downloadParams, latestParams } from './releases.params';

type DownloadRoutes = Extract<(typeof catalog.repository)[number], `${string}/permalink/${string}` | `${string}/downloads/${string}`>;

/** Internal: `url` with whatever a header may not carry (spaces, controls, non-ASCII) percent-encoded as UTF-8. */
const headerSafe = (url: string) =>
  url.replace(/[^\x21-\x7e]+/g, (run) => [...Buffer.from(run, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

/** 302 to `location`, with no body (Grape's `redirect`). */
const found = (location: string): HttpResult<never> => ({ statusCode: 302, headers: { Location: headerSafe(location) } });

/** Internal: the project, readable with its releases and its code (GitLab's `authorize_read_code!`). */
async function findReadableReleases(id: string, user: User | null, auth: Authentication | null) {
  const subject = await findReleasesOrNotFound(id, user, auth);
  authorize(user, 'download_code', subject);
  return subject;
}

/**
 * Internal: the query as GitLab carries it to the latest release (Rails' `to_param`: keys sorted),
 * without `order_by`; a `private_token` parameter included, so that a client authenticated by it
 * is still authenticated where it is sent.
 */
function carriedQuery(link: PageLinkBase): string {
  const search = new URLSearchParams();
  const query: Record<string, string | string[]> = { ...link.query, ...(link.privateToken ? { private_token: link.privateToken } : {}) };
  for (const name of Object.keys(query).sort()) {
    if (name === 'order_by') continue;
    const value = query[name];
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

const latest = route({
  authentication: JOB_TOKEN_ALLOWED,
  anonymous: true,
  params: latestParams,
  handler: async ({ params, user, auth, link }) => {
    const subject = await findReadableReleases(params.id, user, auth);
    const release = await latestRelease(subject.project.id);
    if (!release) throw new NotFoundError();
    const suffix = params.suffix_path ? `/${params.suffix_path.split('/').map(encodeURIComponent).join('/')}` : '';
    return found(`${config().externalUrl}/api/v4/projects/${subject.project.id}/releases/${encodeURIComponent(release.tag)}${suffix}${carriedQuery(link)}`);
  },
});

export const downloadRoutes = {
  'GET /projects/:id/releases/permalink/latest': latest,
  'GET /projects/:id/releases/permalink/latest/:suffix_path+': latest,

  'GET /projects/:id/releases/:tag_name/downloads/:direct_asset_path+': route({
    authentication: JOB_TOKEN_ALLOWED,
    anonymous: true,
    params: downloadParams,
    handler: async ({ params, user, auth }) => {
      const subject = await findReadableReleases(params.id, user, auth);
      const release = await findReleaseOrNotFound(subject.project.id, params.tag_name);
      const link = release.links.find((candidate) => candidate.filepath === `/${params.direct_asset_path}`);
      if (!link) throw new RecordNotFoundError();
      return found(link.url);
    },
  }),
} satisfies RoutesOf<readonly DownloadRoutes[]>;
