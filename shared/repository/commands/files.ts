/**
 * The files API's writes (GitLab's `Files::CreateService`, `UpdateService`, `DeleteService`): one
 * commit with one action, made as the commits API makes its commits; an update or a deletion given
 * the file's `last_commit_id` fails when the file changed since, with the services' own messages.
 */
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { commitFiles, type CommitAction } from './commits';

export interface FileWrite {
  filePath: string;
  branch: string;
  startBranch?: string;
  message: string;
  authorName?: string;
  authorEmail?: string;
  content?: string;
  encoding?: 'text' | 'base64';
  lastCommitId?: string;
  executeFilemode?: boolean;
}

const commitOf = (write: FileWrite, actions: CommitAction[], fileChanged?: { message: string }) => ({
  branch: write.branch,
  message: write.message,
  startBranch: write.startBranch ?? write.branch,
  authorName: write.authorName,
  authorEmail: write.authorEmail,
  actions,
  fileChanged: fileChanged && { path: write.filePath, lastCommitId: write.lastCommitId, message: fileChanged.message },
});

/** `Repository#create_file`: a `create` action (executable when asked). */
export async function createFile(subject: ProjectSubject, user: User, write: FileWrite): Promise<void> {
  await commitFiles(
    subject,
    user,
    commitOf(write, [{ action: 'create', filePath: write.filePath, content: write.content, encoding: write.encoding ?? 'text', executeFilemode: write.executeFilemode }]),
  );
}

/** `Repository#update_file`: an `update` action, and a `chmod` one when `execute_filemode` is given. */
export async function updateFile(subject: ProjectSubject, user: User, write: FileWrite): Promise<void> {
  const actions: CommitAction[] = [{ action: 'update', filePath: write.filePath, content: write.content ?? '', encoding: write.encoding ?? 'text' }];
  if (write.executeFilemode !== undefined) actions.push({ action: 'chmod', filePath: write.filePath, encoding: 'text', executeFilemode: write.executeFilemode });
  await commitFiles(subject, user, commitOf(write, actions, { message: 'You are attempting to update a file that has changed since you started editing it.' }));
}

/** `Repository#delete_file`: a `delete` action. */
export async function deleteFile(subject: ProjectSubject, user: User, write: FileWrite): Promise<void> {
  await commitFiles(
    subject,
    user,
    commitOf(write, [{ action: 'delete', filePath: write.filePath, encoding: 'text' }], { message: 'You are attempting to delete a file that has been previously updated.' }),
  );
}
