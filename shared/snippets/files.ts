/**
 * A snippet's files as GitLab keeps them in the snippet's repository, without the repository: the
 * file actions of `POST`/`PUT` (GitLab's `SnippetInputAction`: create, update, delete, move),
 * checked as its model checks them, then applied as its commit applies them (a file created over
 * an existing one, or an update, delete or move of a file that is not there, fails the whole
 * commit). Files are kept in path order, the order git lists them (GitLab's `file_name` and
 * `raw` answer the first). Pure: no I/O.
 */

/** A snippet's visibility levels (GitLab's `Gitlab::VisibilityLevel.string_values`). */
export const SNIPPET_VISIBILITIES = ['private', 'internal', 'public'] as const;
export type SnippetVisibility = (typeof SNIPPET_VISIBILITIES)[number];

export const FILE_ACTIONS = ['create', 'update', 'delete', 'move'] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

/** A file of a snippet: its path, the S3 object of its content and the content's size in bytes. */
export interface SnippetFile {
  path: string;
  object: string;
  size: number;
}

/** A file action as the client sends it (`files[]` of `PUT`; `POST`'s are all `create`). */
export interface FileActionInput {
  action: FileAction;
  file_path?: string;
  previous_path?: string;
  content?: string;
}

/** An action whose content (if any) is stored: `content` names its object. */
export interface FileChange {
  action: FileAction;
  filePath?: string;
  previousPath?: string;
  content?: { object: string; size: number };
}

/** GitLab's `Snippet.max_file_limit`: most files a snippet holds. */
export const MAX_SNIPPET_FILES = 10;

/** GitLab's name for a file created without a path (`SnippetRepository::DEFAULT_EMPTY_FILE_NAME`). */
const EMPTY_FILE_NAME = /^snippetfile(\d+)\.txt$/;

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Whether every action is valid (GitLab's `SnippetInputActionCollection#valid?`); invalid ones are
 * answered `422 Snippet actions have invalid data`. `allowed`: the actions the request may use
 * (a create only `create`).
 */
export function actionsValid(actions: readonly FileActionInput[], allowed: readonly FileAction[] = FILE_ACTIONS): boolean {
  return actions.every((a) => {
    if (!allowed.includes(a.action)) return false;
    if (a.action === 'move' && (!present(a.previous_path) || a.previous_path === a.file_path)) return false;
    if ((a.action === 'update' || a.action === 'delete') && !present(a.file_path)) return false;
    if ((a.action === 'create' || a.action === 'update') && !present(a.content)) return false;
    return !(a.action === 'update' && present(a.previous_path) && present(a.file_path) && a.previous_path !== a.file_path);
  });
}

/**
 * Grape's `file_path` validator: a path that climbs out of the repository (`..` segments, also
 * URL-encoded) or holds a NUL byte is refused.
 */
export function isSafeFilePath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !decoded.includes('\0') && !decoded.split(/[/\\]/).includes('..') && !decoded.startsWith('/');
}

/** Internal: the next free `snippetfile<N>.txt` (one more than the largest N among `paths`). */
function emptyFileName(paths: Iterable<string>): string {
  let last = 0;
  for (const path of paths) last = Math.max(last, Number(EMPTY_FILE_NAME.exec(path)?.[1] ?? 0));
  return `snippetfile${last + 1}.txt`;
}

/**
 * Applies the changes to the files, as one commit: the new files in path order, or `failed` when
 * the commit would fail (a path taken or missing, no file left, more than {@link MAX_SNIPPET_FILES}).
 * The files of the old list that the result no longer names are for the caller to delete.
 */
export function applyChanges(files: readonly SnippetFile[], changes: readonly FileChange[]): SnippetFile[] | 'failed' {
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const change of changes) {
    const target = present(change.filePath) ? change.filePath : undefined;
    switch (change.action) {
      case 'create': {
        const path = target ?? emptyFileName(byPath.keys());
        if (byPath.has(path) || !change.content) return 'failed';
        byPath.set(path, { path, ...change.content });
        break;
      }
      case 'update': {
        const path = target ?? '';
        const previous = present(change.previousPath) ? change.previousPath : path;
        if (previous !== path || !byPath.has(path) || !change.content) return 'failed';
        byPath.set(path, { path, ...change.content });
        break;
      }
      case 'delete':
        if (!target || !byPath.delete(target)) return 'failed';
        break;
      case 'move': {
        const previous = byPath.get(change.previousPath ?? '');
        const path = target ?? emptyFileName(byPath.keys());
        if (!previous || byPath.has(path)) return 'failed';
        byPath.delete(previous.path);
        byPath.set(path, { path, object: change.content?.object ?? previous.object, size: change.content?.size ?? previous.size });
        break;
      }
    }
  }
  if (byPath.size === 0 || byPath.size > MAX_SNIPPET_FILES) return 'failed';
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The changes of the deprecated single-file parameters on update (GitLab's
 * `build_actions_from_params`): the first file renamed to `file_name` and/or given `content`.
 */
export function legacyChange(files: readonly SnippetFile[], fileName: string | undefined, content: { object: string; size: number } | undefined): FileChange {
  const current = files[0]?.path ?? '';
  const filePath = fileName ?? current;
  return filePath === current ? { action: 'update', filePath, previousPath: current, content } : { action: 'move', filePath, previousPath: current, content };
}

/**
 * Rails' `number_to_human_size` (what GitLab's size messages print): 1024-based, three
 * significant digits, trailing zeros dropped: `4 MB`, `4.5 MB`, `1.18 MB`, `12 Bytes`.
 */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length);
  let value = Number((bytes / 1024 ** exponent).toPrecision(3));
  // 1023.9 KB rounds to 1024 KB: Rails then says 1 MB.
  if (value >= 1024 && exponent < units.length) {
    exponent += 1;
    value = Number((bytes / 1024 ** exponent).toPrecision(3));
  }
  return `${value} ${units[exponent - 1]}`;
}

/** GitLab's snippet content validation message for a content past `limit` bytes. */
export const contentTooLong = (size: number, limit: number): string => `Content is too long (${humanSize(size)}). The maximum size is ${humanSize(limit)}.`;
