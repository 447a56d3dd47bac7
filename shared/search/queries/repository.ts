/**
 * Scopes `commits` and `blobs` of a project's search (GitLab's basic search: `ProjectSearchResults`
 * `#commits` / `#blobs`, entities `CommitDetail` and `Blob`), read from the repository at `ref`
 * (the default branch when not given) with the repository feature's object reader, within fixed
 * budgets, as there is no index of a repository's contents:
 * - `commits`: the newest {@link COMMITS_WALKED} commits of the ref's history whose message holds
 *   the query (case-insensitive), and the commit the query names when it is a 7- to 40-digit id;
 * - `blobs`: the files of the ref's tree whose content holds the query (case-insensitive), in path
 *   order, one result per file: its first matching line with {@link CONTEXT_LINES} lines around it
 *   (`startline` the first shown). At most {@link FILES_READ} files and {@link BYTES_READ} bytes
 *   are read; binary files and files over {@link FILE_BYTES} are skipped. Files matched only by
 *   their name are not found (GitLab's basic search finds them too).
 * Nothing for a caller who may not read the project's code (`download_code`).
 */
import { can, type ProjectSubject } from '../../auth';
import { projectFullPath, webUrlOf } from '../../projects';
import { isTreeEntry, logCommits, ObjectReader, openRepository, presentCommitDetail, resolveCommit } from '../../repository';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { emptyPage, pageOf } from './pages';

/** How far back a commit search reads the ref's history. */
export const COMMITS_WALKED = 2_000;
/** How many files a blob search reads, and how many bytes in all. */
export const FILES_READ = 2_000;
export const BYTES_READ = 32 * 1024 * 1024;
/** Larger files are skipped (GitLab's search leaves large blobs out too). */
export const FILE_BYTES = 1024 * 1024;
/** Lines shown before and after a blob's first match. */
export const CONTEXT_LINES = 2;

async function openAt(subject: ProjectSubject, ref: string | undefined) {
  const reader = new ObjectReader(await openRepository(subject.project));
  const commit = await resolveCommit(reader, subject.project, ref || subject.project.defaultBranch);
  return { subject, reader, commit, ref: ref || subject.project.defaultBranch };
}

export async function searchCommits(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  if (level.kind !== 'project' || !can(input.user, 'download_code', level.subject)) return emptyPage(input);
  const { subject, reader, commit } = await openAt(level.subject, input.ref);
  if (!commit) return emptyPage(input);
  const query = input.search.toLowerCase();
  const history = await logCommits(reader, { tips: [commit.id], offset: 0, limit: COMMITS_WALKED });
  const found = history.filter((c) => c.message.toLowerCase().includes(query));
  if (/^[0-9a-f]{7,40}$/i.test(input.search) && !found.some((c) => c.id.startsWith(query))) {
    const named = await resolveCommit(reader, subject.project, input.search);
    if (named && named.id.startsWith(query)) found.unshift(named);
  }
  const page = await pageOf(input, found);
  const projectWebUrl = webUrlOf(projectFullPath(subject.namespace, subject.project));
  return { items: page.items.map((c) => presentCommitDetail(c, subject.project.id, undefined, { projectWebUrl })), headers: page.headers };
}

export async function searchBlobs(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  if (level.kind !== 'project' || !can(input.user, 'download_code', level.subject)) return emptyPage(input);
  const { subject, reader, commit, ref } = await openAt(level.subject, input.ref);
  if (!commit) return emptyPage(input);
  const query = input.search.toLowerCase();
  const files: Array<{ path: string; oid: string }> = [];
  const walk = async (tree: string, prefix: string): Promise<void> => {
    for (const entry of (await reader.tree(tree)) ?? []) {
      if (files.length >= FILES_READ) return;
      const path = `${prefix}${entry.name.toString('utf8')}`;
      if (isTreeEntry(entry)) await walk(entry.oid, `${path}/`);
      else if (entry.mode === '100644' || entry.mode === '100755') files.push({ path, oid: entry.oid });
    }
  };
  await walk(commit.tree, '');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const found = [];
  let bytes = 0;
  for (const file of files) {
    const data = await reader.blob(file.oid);
    if (!data || data.length > FILE_BYTES || data.subarray(0, 8000).includes(0)) continue;
    if ((bytes += data.length) > BYTES_READ) break;
    const lines = data.toString('utf8').split('\n');
    const at = lines.findIndex((line) => line.toLowerCase().includes(query));
    if (at < 0) continue;
    const start = Math.max(0, at - CONTEXT_LINES);
    found.push({
      basename: file.path.replace(/\.[^./]*$/, ''),
      data: `${lines.slice(start, at + CONTEXT_LINES + 1).join('\n')}\n`,
      path: file.path,
      filename: file.path,
      id: null,
      ref,
      startline: start + 1,
      project_id: subject.project.id,
    });
  }
  const page = await pageOf(input, found);
  return { items: page.items, headers: page.headers };
}
