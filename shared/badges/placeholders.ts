/**
 * A badge's URLs as GitLab treats them (`app/models/badge.rb`, `AddressableUrlValidator`, the
 * `BasicBadgeDetails` entity): the validation of a link or image URL, the placeholders rendered
 * from a project, and the percent-encoding every rendered URL gets. Pure functions: the values of
 * the placeholders are read elsewhere (`queries.ts`).
 *
 * - A placeholder is `%{name}` with one of {@link PLACEHOLDERS}; its value replaces it. A
 *   placeholder whose value is unknown (no commit, no tag, a project outside any group) stays as
 *   written, as GitLab's replacer keeps a placeholder its block answers `nil` for. Without a
 *   project (a group with no project the caller may see) nothing is replaced.
 * - The rendered URL is then encoded as `Addressable::URI.escape` does: split into scheme,
 *   authority, path, query and fragment, and every byte outside each part's RFC 3986 characters
 *   percent-encoded, `%` included (so an unreplaced `%{x}` reads `%25%7Bx%7D`, and `%20` `%2520`).
 */

/** The placeholders GitLab replaces in badge URLs. */
export const PLACEHOLDERS = [
  'project_path',
  'project_title',
  'project_name',
  'project_id',
  'project_namespace',
  'group_name',
  'gitlab_server',
  'gitlab_pages_domain',
  'default_branch',
  'commit_sha',
  'latest_tag',
] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Values of placeholders; one absent (or `undefined`) is unknown and stays as written. */
export type PlaceholderValues = Partial<Record<Placeholder, string>>;

const PLACEHOLDER = new RegExp(`%\\{(${PLACEHOLDERS.join('|')})\\}`, 'g');

/** The placeholders a URL uses. */
export function placeholdersIn(url: string): Set<Placeholder> {
  return new Set([...url.matchAll(PLACEHOLDER)].map((match) => match[1] as Placeholder));
}

/**
 * A badge URL as GitLab presents it in `rendered_link_url` and `rendered_image_url`: placeholders
 * replaced from `values` (none when there is no project: `undefined`), then encoded.
 * @example
 * renderBadgeUrl('https://ci.example.com/%{project_path}/%{commit_sha}', { project_path: 'g/p' })
 * // 'https://ci.example.com/g/p/%25%7Bcommit_sha%7D'
 */
export function renderBadgeUrl(url: string, values: PlaceholderValues | undefined): string {
  const replaced = values ? url.replace(PLACEHOLDER, (whole, name: Placeholder) => values[name] ?? whole) : url;
  return escapeUrl(replaced);
}

// RFC 3986 character classes, as Addressable names them.
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const PCHAR = `${UNRESERVED}${SUB_DELIMS}:@`;
const outside = (allowed: string) => new RegExp(`[^${allowed.replace(/[\]\\^]/g, (c) => (c === '\\' ? c : `\\${c}`))}]`, 'u');
const SCHEME = outside('A-Za-z0-9\\-+.');
const AUTHORITY = outside(`${PCHAR}[]`);
const PATH = outside(`${PCHAR}/`);
const QUERY = outside(`${PCHAR}/?`);

/** RFC 3986's split of a URI reference (the expression of its appendix B). */
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

/** Internal: `part` with every byte of a character `disallowed` matches percent-encoded (upper-case hex). */
function encodePart(part: string, disallowed: RegExp): string {
  let encoded = '';
  for (const char of part) {
    if (!disallowed.test(char)) encoded += char;
    else for (const byte of Buffer.from(char, 'utf8')) encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** `Addressable::URI.escape`: each part of the URL encoded with the characters that part allows. */
export function escapeUrl(url: string): string {
  const parts = URI_PARTS.exec(url);
  if (!parts) return encodePart(url, PATH);
  const [, scheme, authority, path, query, fragment] = parts;
  return (
    (scheme !== undefined ? `${encodePart(scheme, SCHEME)}:` : '') +
    (authority !== undefined ? `//${encodePart(authority, AUTHORITY)}` : '') +
    encodePart(path, PATH) +
    (query !== undefined ? `?${encodePart(query, QUERY)}` : '') +
    (fragment !== undefined ? `#${encodePart(fragment, QUERY)}` : '')
  );
}

/** Schemes that name a host (Addressable's `ip_based_schemes`, the ones a URL can be written with here). */
const IP_BASED = new Set(['http', 'https', 'ftp', 'tftp', 'sftp', 'ssh', 'svn+ssh', 'telnet', 'nntp', 'gopher', 'wais', 'ldap', 'prospero']);

/** Internal: whether `host` is an IP address (v4, or v6 in brackets). */
const isIpAddress = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[[0-9a-fA-F:.]+\]$/.test(host);

/**
 * GitLab's validation of a badge's `link_url` or `image_url` (`addressable_url: true`): the
 * message of the attribute's error, or `undefined` when the URL is valid. `url` is stripped first,
 * as GitLab strips it before validating and storing it.
 * - blank: `must be a valid URL`;
 * - not a URL Addressable can parse (a scheme of other characters, a port that is not a number,
 *   a host with spaces, braces, quotes…, no host and no path), or over several lines:
 *   `is blocked: URI is invalid`;
 * - a scheme other than `http` or `https`, or none: `is blocked: Only allowed schemes are http, https`;
 * - a host that neither starts with a letter or digit nor is an IP address:
 *   `is blocked: Hostname or IP address invalid`.
 * Placeholders are not replaced before validating: one in the host makes it invalid, as in GitLab.
 */
export function badgeUrlError(raw: string): string | undefined {
  const url = raw.trim();
  if (url === '') return 'must be a valid URL';
  const parts = /[\r\n]/.test(url) ? null : URI_PARTS.exec(url);
  if (!parts) return 'is blocked: URI is invalid';
  const [, scheme, authority, path] = parts;
  let host: string | undefined;
  if (authority !== undefined) {
    const hostPort = authority.replace(/^[^[\]]*@/, '');
    const port = /:([^:@[\]]*?)$/.exec(hostPort)?.[1];
    host = hostPort.replace(/:([^:@[\]]*?)$/, '');
    if (port && !/^\d+$/.test(decodeURIComponentSafe(port))) return 'is blocked: URI is invalid';
    if (/[<>{}/\\?#@"\s]/.test(host)) return 'is blocked: URI is invalid';
  }
  if (scheme !== undefined) {
    if (!/^[a-z][a-z0-9.+-]*$/i.test(scheme)) return 'is blocked: URI is invalid';
    if (IP_BASED.has(scheme.toLowerCase()) && !host && path === '') return 'is blocked: URI is invalid';
  }
  if (scheme !== 'http' && scheme !== 'https') return 'is blocked: Only allowed schemes are http, https';
  if (host && !isIpAddress(host) && !/^[\p{L}\p{N}]/u.test(host)) return 'is blocked: Hostname or IP address invalid';
  return undefined;
}

/** Internal: `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
