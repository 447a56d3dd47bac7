/**
 * GitLab's commit entities: `Commit` (lists, branches, tags), `CommitWithStats` (lists with
 * `with_stats`) and `CommitDetail` (one commit, and the commit an API write made), `CommitStats`,
 * and `BasicRef` (the refs containing a commit).
 *
 * Cost of the fields: all come from the commit object itself, but `stats` (a diff against the
 * first parent, computed by the query and passed in). `status` and `last_pipeline` are null (no
 * pipelines yet); `trailers` and `extended_trailers` are `{}` unless the list asked for them
 * (`trailers=true`), as GitLab reads trailers only then.
 */
import type { Contributor } from '../queries/commits';
import type { CommitObject, Signature } from '../queries/objects';

/** Lines counted by a commit's diff against its first parent. */
export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/**
 * A git time in the zone it was recorded in, as Ruby's `Time#as_json` writes it (milliseconds,
 * and the offset as `+02:00`).
 *
 * @example gitDate({ timestamp: 1323692851, timezoneOffset: 120 }); // '2011-12-12T14:27:31.000+02:00'
 */
export function gitDate(signature: Pick<Signature, 'timestamp' | 'timezoneOffset'>): string {
  const local = new Date((signature.timestamp + signature.timezoneOffset * 60) * 1000).toISOString().slice(0, 23);
  const offset = Math.abs(signature.timezoneOffset);
  const sign = signature.timezoneOffset < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(offset / 60)).padStart(2, '0')}:${String(offset % 60).padStart(2, '0')}`;
}

/** `Commit#full_title`: the message's first line, or `No commit message` when the message is blank. */
export function commitTitle(message: string): string {
  return /^\s*$/u.test(message) ? 'No commit message' : message.split(/[\r\n]/, 1)[0];
}

/**
 * git trailers of a message (`Key: value` lines of its last paragraph, when every line of it is
 * one): GitLab's `trailers` (the last value of each key) and `extended_trailers` (all of them).
 */
export function commitTrailers(message: string): { trailers: Record<string, string>; extended: Record<string, string[]> } {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? paragraphs[paragraphs.length - 1] : '';
  const lines = last.split('\n').filter((line) => line.trim() !== '');
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  if (lines.length === 0 || !lines.every((line) => /^[A-Za-z0-9-]+:\s/.test(line))) return { trailers, extended };
  for (const line of lines) {
    const [, key, value] = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line)!;
    trailers[key] = value;
    (extended[key] ??= []).push(value);
  }
  return { trailers, extended };
}

export interface CommitPresentation {
  /** The project's web URL (`https://host/group/project`), for `web_url`. */
  projectWebUrl: string;
  /** Read the trailers (`trailers=true` on the list). */
  trailers?: boolean;
}

/** GitLab's `Commit` entity. */
export function presentCommit(commit: CommitObject, options: CommitPresentation) {
  const trailers = options.trailers ? commitTrailers(commit.message) : { trailers: {}, extended: {} };
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: gitDate(commit.committer),
    parent_ids: commit.parents,
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitDate(commit.author),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitDate(commit.committer),
    trailers: trailers.trailers,
    extended_trailers: trailers.extended,
    web_url: `${options.projectWebUrl}/-/commit/${commit.id}`,
  };
}

/** GitLab's `BlameRangeCommit`: the commit of a blame's range of lines. */
export function presentBlameCommit(commit: CommitObject) {
  return {
    id: commit.id,
    parent_ids: commit.parents,
    message: commit.message,
    authored_date: gitDate(commit.author),
    author_name: commit.author.name,
    author_email: commit.author.email,
    committed_date: gitDate(commit.committer),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
  };
}

/** GitLab's `Contributor` entity (`additions` and `deletions` are always 0 in GitLab too). */
export function presentContributor(contributor: Contributor) {
  return { name: contributor.name, email: contributor.email, commits: contributor.commits, additions: 0, deletions: 0 };
}

/** GitLab's `CommitWithStats`. */
export function presentCommitWithStats(commit: CommitObject, stats: CommitStats, options: CommitPresentation) {
  return { ...presentCommit(commit, options), stats };
}

/** GitLab's `CommitDetail`: `stats` only when asked for (`stats`, default true). */
export function presentCommitDetail(commit: CommitObject, projectId: number, stats: CommitStats | undefined, options: CommitPresentation) {
  return {
    ...presentCommit(commit, options),
    ...(stats ? { stats } : {}),
    status: null,
    project_id: projectId,
    last_pipeline: null,
  };
}

/** GitLab's `BasicRef`. */
export function presentBasicRef(ref: { type: 'branch' | 'tag'; name: string }) {
  return { type: ref.type, name: ref.name };
}
