/**
 * The commits of a push as GitLab's payloads show them (`Commit#hook_attrs`): id, message, title,
 * timestamp (the committer date in the committer's own time zone, `2011-12-12T14:27:31+02:00`),
 * author, and the paths the commit changed. Pure functions, but {@link describeCommits}, which reads
 * the trees it compares.
 */
import { parseCommitLinks } from '../git/objects/parse';
import type { ObjectReader } from '../git/walk';
import { changedPaths, type ChangedPaths } from './changes';
import type { WalkedCommit } from './summary';

/** A commit's attributes besides the paths it changed (what a feed event shows). */
export interface CommitAttributes {
  id: string;
  message: string;
  title: string;
  timestamp: string;
  author: { name: string; email: string };
}

/** A pushed commit as hook events store it (its `url` is built when the payload is). */
export interface PushCommit extends CommitAttributes, ChangedPaths {}

/** Ruby's `String#blank?`: empty or only white space. */
const isBlank = (text: string) => /^\s*$/u.test(text);

/** Ruby's `String#truncate`, counting characters (code points) as Ruby does. */
export function truncate(text: string, length: number, options: { omission?: string; separator?: string } = {}): string {
  const chars = Array.from(text);
  if (chars.length <= length) return text;
  const omission = options.omission ?? '...';
  const room = length - Array.from(omission).length;
  let stop = room;
  if (options.separator !== undefined) {
    const head = chars.slice(0, room + 1).join('');
    const found = head.lastIndexOf(options.separator);
    if (found >= 0) stop = Array.from(head.slice(0, found)).length;
  }
  return chars.slice(0, stop).join('') + omission;
}

/**
 * `Commit#title`: the first line of the message (`No commit message` when there is none), cut
 * after about 80 characters, at a space, when it is 100 characters or longer.
 *
 * @example commitTitle('Fix the build\n\nIt was broken.'); // 'Fix the build'
 */
export function commitTitle(message: string): string {
  const full = isBlank(message) ? 'No commit message' : message.split(/[\r\n]/, 1)[0];
  return Array.from(full).length < 100 ? full : truncate(full, 81, { separator: ' ', omission: '...' });
}

/**
 * A git time (seconds since the epoch, and the zone's offset from UTC in minutes) as Ruby's
 * `Time#xmlschema` writes it in that zone.
 *
 * @example gitTime(1323692851, 120); // '2011-12-12T14:27:31+02:00'
 */
export function gitTime(seconds: number, offsetMinutes: number): string {
  const local = new Date((seconds + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A commit's attributes besides the paths it changed. */
export function commitAttributes({ id, commit }: WalkedCommit): CommitAttributes {
  return {
    id,
    message: commit.message,
    title: commitTitle(commit.message),
    timestamp: gitTime(commit.committer.timestamp, commit.committer.timezoneOffset),
    author: { name: commit.author.name, email: commit.author.email },
  };
}

/**
 * The pushed commits as payloads show them, in the order given, with the paths each changed
 * against its first parent (read here: the trees of each commit and of its first parent).
 */
export async function describeCommits(read: ObjectReader, commits: WalkedCommit[]): Promise<PushCommit[]> {
  const described: PushCommit[] = [];
  for (const walked of commits) {
    const parent = walked.commit.parents[0];
    const parentObject = parent ? await read(parent) : undefined;
    const parentTree = parentObject?.type === 'commit' ? parseCommitLinks(parentObject.body).tree : null;
    described.push({ ...commitAttributes(walked), ...(await changedPaths(read, walked.commit.tree, parentTree)) });
  }
  return described;
}
