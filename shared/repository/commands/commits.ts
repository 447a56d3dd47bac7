/**
 * Committing files through the API (GitLab's `Files::MultiService` behind
 * `POST /projects/:id/repository/commits`, and the single-file services behind the files API):
 * the checks of `Commits::CreateService`, then the actions applied to the start commit's tree, the
 * new blobs, trees and commit stored as one pack, and the branch moved with a compare-and-swap from
 * the commit it started at (a racing write makes this one fail, as Gitaly's ref update does).
 *
 * Every failure is GitLab's 400 with its message (`render_api_error!(result[:message], 400)`).
 */
import type { ProjectSubject } from '../../auth';
import { BadRequestError } from '../../platform/http/errors';
import type { User } from '../../users';
import { formatTimezone, serializeCommit } from '../git/objects/parse';
import { hashObject, type GitObject } from '../git/objects/types';
import { openRepository } from '../repository';
import { lastCommitForPath } from '../queries/commits';
import { FULL_OID, ObjectReader, type CommitObject } from '../queries/objects';
import { BranchRules } from '../queries/protection';
import { BRANCH_PREFIX } from '../queries/revisions';
import { validateNewBranchName } from './ref-names';
import { branchCheck, changeRef, refRaceMessage } from './refs';
import { IndexError, TreeEditor, normalizePath } from './tree-edits';

export type CommitActionName = 'create' | 'delete' | 'move' | 'update' | 'chmod';

/** One action of a commit, as the API takes it. */
export interface CommitAction {
  action: CommitActionName;
  filePath: string;
  previousPath?: string;
  /** Absent: empty for `create`, the previous content for `move`. */
  content?: string;
  encoding: 'text' | 'base64';
  lastCommitId?: string;
  executeFilemode?: boolean;
}

export interface CommitRequest {
  branch: string;
  message: string;
  startBranch?: string;
  startSha?: string;
  authorName?: string;
  authorEmail?: string;
  actions: CommitAction[];
  /**
   * The files API's own "changed since" check (`Files::UpdateService`, `Files::DeleteService`):
   * the path's last commit on the start branch must be `lastCommitId`, or the write fails with
   * `message`. The commits API checks each action's `last_commit_id` instead.
   */
  fileChanged?: { path: string; lastCommitId?: string; message: string };
}

/** The actions whose `last_commit_id` the commits API checks (`Files::MultiService::UPDATE_FILE_ACTIONS`). */
const CHECKED_ACTIONS: readonly CommitActionName[] = ['update', 'move', 'delete', 'chmod'];

const fail = (message: string): never => {
  throw new BadRequestError(message);
};

const contentOf = (action: CommitAction): Buffer =>
  action.encoding === 'base64' ? Buffer.from(action.content ?? '', 'base64') : Buffer.from(action.content ?? '', 'utf8');

/** Applies the actions to a tree, answering the new tree and the objects to store (`IndexError`s become 400s). */
export async function applyActions(reader: ObjectReader, baseTree: string | null, actions: CommitAction[]): Promise<{ tree: string; objects: GitObject[] }> {
  const editor = new TreeEditor(reader, baseTree);
  const blobs = new Map<string, GitObject>();
  const blob = (content: Buffer) => {
    const oid = hashObject('blob', content);
    blobs.set(oid, { type: 'blob', body: content });
    return oid;
  };
  try {
    for (const action of actions) {
      const path = normalizePath(action.filePath);
      switch (action.action) {
        case 'create':
          await editor.create(path, { mode: action.executeFilemode ? '100755' : '100644', oid: blob(contentOf(action)) });
          break;
        case 'update':
          await editor.update(path, { oid: blob(contentOf(action)) });
          break;
        case 'delete':
          await editor.remove(path);
          break;
        case 'chmod': {
          const file = await editor.file(path);
          if (!file) await editor.update(path, {});
          else if (file.mode === '100644' || file.mode === '100755') await editor.update(path, { mode: action.executeFilemode ? '100755' : '100644' });
          break;
        }
        case 'move': {
          const from = normalizePath(action.previousPath ?? '');
          if (!(await editor.file(from))) await editor.update(from, {});
          if (await editor.file(path)) await editor.create(path, { mode: '100644', oid: '' });
          const moved = await editor.remove(from);
          await editor.create(path, { mode: moved.mode, oid: action.content === undefined ? moved.oid : blob(contentOf(action)) });
          break;
        }
      }
    }
  } catch (error) {
    if (error instanceof IndexError) fail(error.message);
    throw error;
  }
  const { oid, objects } = editor.build();
  return { tree: oid, objects: [...blobs.values(), ...objects] };
}

/**
 * Makes one commit on a branch from some actions, after GitLab's checks; answers the new commit
 * (and the reader it can be presented with).
 *
 * @example
 * const { commit } = await commitFiles(subject, user, {
 *   branch: 'main', message: 'Add README', actions: [{ action: 'create', filePath: 'README.md', content: '# Hi', encoding: 'text' }],
 * });
 */
export async function commitFiles(subject: ProjectSubject, user: User, request: CommitRequest): Promise<{ commit: CommitObject; reader: ObjectReader }> {
  const repository = await openRepository(subject.project);
  const reader = new ObjectReader(repository);
  const rules = await BranchRules.load(subject.project.id);
  const { branch } = request;
  // Commits::CreateService#validate!
  if (!rules.canPush(user, subject, branch)) fail('You are not allowed to push into this branch');
  const startBranch = request.startBranch ?? (request.startSha ? undefined : branch);
  let start: CommitObject | undefined;
  if (request.startSha !== undefined) {
    if (startBranch !== undefined) fail("You can't pass both start_branch and start_sha");
    if (!FULL_OID.test(request.startSha)) fail(`Invalid start_sha '${request.startSha}'`);
    start = await reader.commit(request.startSha);
    if (!start) fail(`Cannot find start_sha '${request.startSha}'`);
  }
  const branches = await repository.refs(BRANCH_PREFIX);
  const empty = branches.length === 0;
  const tipOf = (name: string) => branches.find((ref) => ref.name === `${BRANCH_PREFIX}${name}`)?.oid;
  if (startBranch !== undefined) {
    const tip = tipOf(startBranch);
    if (!empty && tip === undefined) fail('You can only create or edit files when you are on a branch');
    if (tip !== undefined) start = await reader.commit(tip);
  }
  const target = tipOf(branch);
  const differentBranch = startBranch !== branch || request.startSha !== undefined;
  if (!empty && differentBranch && target !== undefined) {
    fail(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (differentBranch || target === undefined) {
    const invalid = validateNewBranchName(branch, target !== undefined);
    if (invalid) fail(`Something went wrong when we tried to create '${branch}' for you: ${invalid}`);
  }
  // Files::MultiService#validate_file_status! / Files::UpdateService / Files::DeleteService
  const changedSince = async (path: string, lastCommitId: string | undefined) => {
    if (!lastCommitId || !start) return false;
    const last = await lastCommitForPath(reader, start.id, path);
    return last !== undefined && last.id !== lastCommitId;
  };
  for (const action of request.actions) {
    if (!CHECKED_ACTIONS.includes(action.action)) continue;
    const path = action.previousPath ?? action.filePath;
    if (await changedSince(path, action.lastCommitId)) fail(`The file has changed since you started editing it: ${path}`);
  }
  if (request.fileChanged && (await changedSince(request.fileChanged.path, request.fileChanged.lastCommitId))) fail(request.fileChanged.message);

  const { tree, objects } = await applyActions(reader, start?.tree ?? null, request.actions);
  const now = Math.floor(Date.now() / 1000);
  const committer = { name: user.name, email: user.email, timestamp: now, timezone: formatTimezone(0) };
  const author = request.authorName && request.authorEmail ? { ...committer, name: request.authorName, email: request.authorEmail } : committer;
  const body = serializeCommit({ tree, parents: start ? [start.id] : [], author, committer, message: request.message });
  const id = hashObject('commit', body);

  const ref = `${BRANCH_PREFIX}${branch}`;
  const oldOid = target === undefined ? null : start?.id ?? null;
  const writer = { subject, user, repository };
  // The new commit is stored before the branch can point at it (and before the checks read it).
  await repository.writeObjects([...objects, { type: 'commit', body }]);
  const refused = await branchCheck(writer, reader, rules, branch, target ?? null, id);
  if (refused) fail(refused);
  if (!(await changeRef(writer, { name: ref, oldOid, newOid: id }, rules))) fail(refRaceMessage(ref));
  return { commit: (await reader.commit(id))!, reader };
}
