/**
 * A badge's URLs as GitLab treats them: placeholders rendered from a project's values (unknown
 * ones kept), the rendered URL percent-encoded as `Addressable::URI.escape` does, and the URL
 * validation's messages.
 */
import { describe, expect, it } from 'vitest';
import { badgeUrlError, renderBadgeUrl } from '../../shared/badges/placeholders';

describe('renderBadgeUrl', () => {
  it('replaces every placeholder it has a value for, keeps the others, and encodes the result part by part', () => {
    // Prepare
    const values = { project_path: 'grp/my-project', project_title: 'My Project', project_id: '42', commit_sha: undefined };
    const url = 'https://ci.example.com/%{project_path}/%{project_title}?id=%{project_id}&sha=%{commit_sha}&q=a%20b&x=%{unknown}#%{project_id}';
    // Act
    const rendered = renderBadgeUrl(url, values);
    // Assess
    expect(rendered).toBe('https://ci.example.com/grp/my-project/My%20Project?id=42&sha=%25%7Bcommit_sha%7D&q=a%2520b&x=%25%7Bunknown%7D#42');
  });

  it('replaces nothing without a project, encodes only; non-ASCII as UTF-8 bytes', () => {
    expect(renderBadgeUrl('https://example.com/%{project_path}/é', undefined)).toBe('https://example.com/%25%7Bproject_path%7D/%C3%A9');
    expect(renderBadgeUrl('http://user@example.com:8080/a/b?c=d/e?f', {})).toBe('http://user@example.com:8080/a/b?c=d/e?f');
  });
});

describe('badgeUrlError', () => {
  it.each([
    ['https://example.com/%{project_path}', undefined],
    ['  http://127.0.0.1:3000/x  ', undefined],
    ['http://[::1]/x', undefined],
    ['', 'must be a valid URL'],
    ['   ', 'must be a valid URL'],
    ['ftp://example.com/x', 'is blocked: Only allowed schemes are http, https'],
    ['example.com/badge.svg', 'is blocked: Only allowed schemes are http, https'],
    ['https://exa mple.com/', 'is blocked: URI is invalid'],
    ['https://%{gitlab_server}/x', 'is blocked: URI is invalid'],
    ['https://example.com:80a/', 'is blocked: URI is invalid'],
    ['http://', 'is blocked: URI is invalid'],
    ['https://example.com/a\nb', 'is blocked: URI is invalid'],
    ['https://-example.com/', 'is blocked: Hostname or IP address invalid'],
  ])('%j: %s', (url, message) => {
    expect(badgeUrlError(url)).toBe(message);
  });
});
