/**
 * Creating, editing and deleting project and personal snippets (GitLab's `Snippets::CreateService`,
 * `UpdateService`, `DestroyService`), answered as its API answers them: file actions GitLab's
 * model refuses are `422 {"error":"Snippet actions have invalid data"}`, the model's validations
 * `400 {"error":"Content is too long (…)"}`, a commit that would fail (a path taken or missing, no
 * file left) `400 {"error":"Repository Error creating the snippet"}`. Nothing is written before
 * every check passed; contents are stored before the item that names them (`store/snippets.ts`).
 */
import { config } from '../../platform/config';
import { ApiError, NotFoundError, ParamError } from '../../platform/http/errors';
import { actionsValid, applyChanges, contentTooLong, legacyChange, type FileActionInput, type FileChange, type SnippetFile } from '../files';
import { deleteContents, deleteProjectContents, deleteSnippet, getSnippet, insertSnippet, newSnippetId, putContent, updateSnippet, type Snippet, type SnippetChanges, type SnippetVisibility } from '../store/snippets';

/** What `POST` and `PUT` give, after the parameters' checks. */
export interface SnippetInput {
  title?: string;
  description?: string;
  visibility?: SnippetVisibility;
  /** The deprecated single file: its name and content. */
  fileName?: string;
  content?: string;
  files?: FileActionInput[];
}

/** How often an edit that lost a race is tried again on the snippet as it now is. */
const EDIT_ATTEMPTS = 3;

const invalidActions = () => new ApiError(422, { error: 'Snippet actions have invalid data' });
const repositoryError = (creating: boolean) => new ParamError(`Repository Error ${creating ? 'creating' : 'updating'} the snippet`);

/**
 * The model's validation of the contents (GitLab's `snippet_size_limit`, `SNIPPET_SIZE_LIMIT`
 * here): the message for the largest content past it, if any. Titles, descriptions and paths are
 * checked with the parameters (`routes/snippets.params.ts`).
 */
export function contentError(contents: readonly string[], limit = config().snippetSizeLimit): string | undefined {
  const largest = Math.max(0, ...contents.map((content) => Buffer.byteLength(content, 'utf8')));
  return largest > limit ? contentTooLong(largest, limit) : undefined;
}

/** Internal: refuses contents the model refuses (400), before anything is written. */
function validate(contents: readonly string[]): void {
  const error = contentError(contents);
  if (error) throw new ParamError(error);
}

/** Internal: stores the contents of the actions; the changes naming their objects. */
async function storeChanges(projectId: number | null, snippetId: number, actions: readonly FileActionInput[]): Promise<FileChange[]> {
  return Promise.all(
    actions.map(async (action) => ({
      action: action.action,
      filePath: action.file_path,
      previousPath: action.previous_path,
      content: action.content === undefined ? undefined : await putContent(projectId, snippetId, action.content),
    })),
  );
}

/** Internal: the actions as changes whose contents are not stored yet (to try the commit first). */
const planned = (actions: readonly FileActionInput[]): FileChange[] =>
  actions.map((action) => ({ action: action.action, filePath: action.file_path, previousPath: action.previous_path, content: action.content === undefined ? undefined : { object: '', size: 0 } }));

const objectsOf = (changes: readonly FileChange[]) => changes.flatMap((change) => (change.content ? [change.content.object] : []));

/** Creates a snippet in the project, or a personal one (`projectId` null; the caller may: `create_snippet`). */
export async function createSnippet(projectId: number | null, authorId: number, input: SnippetInput & { title: string; visibility: SnippetVisibility }): Promise<Snippet> {
  const actions: FileActionInput[] = input.files ?? [{ action: 'create', file_path: input.fileName, content: input.content }];
  if (input.files && !actionsValid(actions, ['create'])) throw invalidActions();
  // `files: []` gives no content at all: the model's presence check.
  if (actions.length === 0) throw new ParamError("Content can't be blank");
  validate(actions.map((action) => action.content ?? ''));
  // The commit is tried before anything is written (no id drawn, no content stored) when it would fail.
  if (applyChanges([], planned(actions)) === 'failed') throw repositoryError(true);
  const id = await newSnippetId();
  const changes = await storeChanges(projectId, id, actions);
  const files = applyChanges([], changes) as SnippetFile[];
  const now = new Date().toISOString();
  const snippet: Snippet = {
    id,
    projectId,
    title: input.title,
    description: input.description ?? null,
    visibility: input.visibility,
    authorId,
    files,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  if ((await insertSnippet(snippet)) === 'project_gone') {
    await deleteContents(objectsOf(changes));
    throw new NotFoundError('Project');
  }
  return snippet;
}

/**
 * Edits a snippet: its fields, and its files by `files` actions or the deprecated `file_name` and
 * `content` (only on a single-file snippet: 400 otherwise, as GitLab). An edit that loses a race
 * with another is applied again to the snippet as the other left it.
 */
export async function editSnippet(snippet: Snippet, input: SnippetInput): Promise<Snippet> {
  const legacy = input.fileName !== undefined || input.content !== undefined;
  if (legacy && snippet.files.length > 1) throw new ParamError('To update Snippets with multiple files, you must use the `files` parameter');
  if (input.files && !actionsValid(input.files)) throw invalidActions();
  validate([...(input.files ?? []).map((action) => action.content ?? ''), input.content ?? '']);
  const fields: SnippetChanges = {};
  if (input.title !== undefined) fields.title = input.title;
  if (input.description !== undefined) fields.description = input.description;
  if (input.visibility !== undefined) fields.visibility = input.visibility;

  // The commit is tried on the version read before anything is written.
  const plannedContent = input.content === undefined ? undefined : { object: '', size: 0 };
  const trial = legacy ? legacyChanges(snippet.files, input.fileName, plannedContent) : planned(input.files ?? []);
  if (trial.length > 0 && applyChanges(snippet.files, trial) === 'failed') throw repositoryError(false);
  // Contents are stored once; the actions naming them are applied to each version tried.
  const changes = input.files ? await storeChanges(snippet.projectId, snippet.id, input.files) : [];
  const legacyContent = input.content === undefined ? undefined : await putContent(snippet.projectId, snippet.id, input.content);
  let current: Snippet | undefined = snippet;
  for (let attempt = 0; current && attempt < EDIT_ATTEMPTS; attempt++) {
    const fileChanges = legacy ? legacyChanges(current.files, input.fileName, legacyContent) : changes;
    const files = fileChanges.length > 0 ? applyChanges(current.files, fileChanges) : current.files;
    if (files === 'failed') break;
    const written = await updateSnippet(current, fileChanges.length > 0 ? { ...fields, files } : fields, new Date().toISOString());
    if (written !== 'conflict') {
      const kept = new Set(written.files.map((file) => file.object));
      await deleteContents(current.files.map((file) => file.object).filter((object) => !kept.has(object)));
      return written;
    }
    current = await getSnippet(snippet.projectId, snippet.id);
  }
  await deleteContents([...objectsOf(changes), ...(legacyContent ? [legacyContent.object] : [])]);
  if (!current) throw new NotFoundError('Snippet');
  throw repositoryError(false);
}

/** Internal: the deprecated parameters as file changes (none when they change nothing). */
function legacyChanges(files: readonly SnippetFile[], fileName: string | undefined, content: { object: string; size: number } | undefined): FileChange[] {
  if (content === undefined && (fileName === undefined || fileName === files[0]?.path)) return [];
  return [legacyChange(files, fileName, content)];
}

/** Deletes a snippet with its contents; 404 when it went meanwhile. */
export async function removeSnippet(snippet: Snippet): Promise<void> {
  if (!(await deleteSnippet(snippet))) throw new NotFoundError('Snippet');
}

/** What goes with a deleted project (a removal step of the projects feature): the contents; the items go with its partition. */
export const removeProjectSnippets = (project: { id: number }): Promise<void> => deleteProjectContents(project.id);
