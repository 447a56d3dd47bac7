/**
 * GitLab's closing-issue extractor (`Gitlab::ClosingIssueExtractor` with `gitlab.yml`'s default
 * `issue_closing_pattern`): in a text, the issue references that follow `Close`, `Closes`,
 * `Closed`, `Closing`, `Fix`, `Fixes`, `Fixed`, `Fixing`, `Resolve`, `Resolves`, `Resolved`,
 * `Resolving` (first letter either case, an optional `:`), optionally `issue`/`issues`, then one
 * or more references separated by `,` or `and`: `#12`, `group/project#12`, or an issue's URL.
 * Pure: no I/O.
 */

/** A reference to an issue: its project's full path (`undefined`: the merge request's own project) and iid. */
export interface IssueReference {
  path?: string;
  iid: number;
}

/** Internal: one issue reference as the pattern's `%{issue_ref}` (a path, `#`, digits; or a URL ending in `/issues/<n>`). */
const REFERENCE = String.raw`(?:(?:[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+)?#\d+|https?://[^\s]+/issues/\d+)`;

/** `issue_closing_pattern` (GitLab's default), with `%{issue_ref}` filled. */
const CLOSING_PATTERN = new RegExp(
  String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing))(?::?) +(?:(?:issues? +)?${REFERENCE}(?:(?:, *| +and +)?))+`,
  'g',
);

/** Internal: each reference inside a matched closing phrase. */
const EACH_REFERENCE = new RegExp(String.raw`(?:([A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+)?#(\d+))|(?:https?://[^\s]*?/([^\s]+?)/(?:-/)?issues/(\d+))`, 'g');

/**
 * The issues a text closes, in order of first mention, each once.
 * @param baseUrl the service's external URL: an issue URL counts when it is under it.
 * @example
 * closingReferences('Fixes #1 and group/app#2', 'https://git.example.com'); // [{ iid: 1 }, { path: 'group/app', iid: 2 }]
 */
export function closingReferences(text: string, baseUrl: string): IssueReference[] {
  const found = new Map<string, IssueReference>();
  for (const phrase of text.matchAll(CLOSING_PATTERN)) {
    for (const match of phrase[0].matchAll(EACH_REFERENCE)) {
      let reference: IssueReference;
      if (match[2] !== undefined) {
        reference = { ...(match[1] ? { path: match[1] } : {}), iid: Number(match[2]) };
      } else {
        const url = match[0];
        if (!url.startsWith(`${baseUrl}/`)) continue;
        const path = url.slice(baseUrl.length + 1).replace(/\/(?:-\/)?issues\/\d+$/, '');
        reference = { path, iid: Number(match[4]) };
      }
      const key = `${reference.path ?? ''}#${reference.iid}`;
      if (!found.has(key)) found.set(key, reference);
    }
  }
  return [...found.values()];
}

/** Internal: any issue reference (GitLab's `Issue.reference_pattern` and issue URLs), not after a word character. */
const ANY_REFERENCE = new RegExp(
  String.raw`(?<![\w/#])(?:([A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+)?#(\d+))(?![\w#])|(https?://[^\s)\]>]+?/(?:-/)?issues/(\d+))(?![\w/])`,
  'g',
);

/**
 * The issues a text mentions (GitLab's `ReferenceExtractor#issues`: `#12`, `group/project#12`, or
 * an issue URL under `baseUrl`), closing or not, in order of first mention, each once. What a
 * merge request's title and description mention makes it one of the issue's related merge
 * requests. Pure: no I/O.
 * @example
 * mentionedReferences('See #1, group/app#2', 'https://git.example.com'); // [{ iid: 1 }, { path: 'group/app', iid: 2 }]
 */
export function mentionedReferences(text: string, baseUrl: string): IssueReference[] {
  const found = new Map<string, IssueReference>();
  for (const match of text.matchAll(ANY_REFERENCE)) {
    let reference: IssueReference;
    if (match[2] !== undefined) {
      reference = { ...(match[1] ? { path: match[1] } : {}), iid: Number(match[2]) };
    } else {
      const url = match[3];
      if (!url.startsWith(`${baseUrl}/`)) continue;
      reference = { path: url.slice(baseUrl.length + 1).replace(/\/(?:-\/)?issues\/\d+$/, ''), iid: Number(match[4]) };
    }
    const key = `${reference.path ?? ''}#${reference.iid}`;
    if (!found.has(key)) found.set(key, reference);
  }
  return [...found.values()];
}
