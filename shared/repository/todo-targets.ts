/**
 * Commits as todo targets (`GET /todos`, `POST /todos/:id/mark_as_done`): the resolver the
 * composition root registers with the issues feature (`registerTodoTargets('Commit', …)`), which
 * cannot import this feature. A commit todo holds its project, the commit's sha (GitLab's
 * `commit_id`) and the note that mentioned the user.
 *
 * Its target is readable while the user can read the project's code (`download_code`, GitLab's
 * `read_commit`) and the commit is still in the repository. Presented as GitLab's `Todo` entity
 * shows a commit: `target` the `Commit` entity, `target_url` the commit's page with the note's
 * anchor (`<project web_url>/-/commit/<sha>#note_<id>`), `body` the note (the commit's title once
 * the note is gone, as `Todo#body` falls back to the target's title).
 *
 * Cost per page of todos: one repository opened per project, one commit object read per todo, and
 * one BatchGetItem of the notes.
 */
import { can, type ProjectSubject } from '../auth';
import { getMany } from '../platform/dynamo/batch';
import { projectFullPath, webUrlOf } from '../projects';
import type { User } from '../users';
import { commitTitle, presentCommit } from './presenters/commits';
import { ObjectReader, type CommitObject } from './queries/objects';
import { openRepository } from './repository';
import { commitNoteFromItem } from './store/commit-notes';
import { commitNoteKeys } from './store/keys';

/** What a commit todo holds (the issues feature's `Todo`, structurally). */
interface CommitTodo {
  id: number;
  projectId: number;
  commitId?: string;
  noteId?: number;
}

/** A commit todo's target as loaded: the commit, the note's body if it is still there, the project's web URL. */
export interface CommitTodoTarget {
  commit: CommitObject;
  noteBody: string | undefined;
  webUrl: string;
}

/** Internal: the commits of one project's todos, by sha (one repository opened, one read per sha). */
async function commitsOf(subject: ProjectSubject, shas: string[]): Promise<Map<string, CommitObject>> {
  const reader = new ObjectReader(await openRepository(subject.project));
  const commits = await Promise.all(shas.map((sha) => reader.commit(sha)));
  return new Map(commits.flatMap((commit, i) => (commit ? [[shas[i], commit] as const] : [])));
}

export const commitTodoTargets = {
  async load(user: User, todos: CommitTodo[], subjects: Map<number, ProjectSubject>): Promise<Map<number, CommitTodoTarget>> {
    const readable = todos.filter((todo) => {
      const subject = subjects.get(todo.projectId);
      return todo.commitId !== undefined && subject !== undefined && can(user, 'download_code', subject);
    });
    const projectIds = [...new Set(readable.map((todo) => todo.projectId))];
    const noted = readable.filter((todo) => todo.noteId !== undefined);
    const [commitMaps, noteItems] = await Promise.all([
      Promise.all(projectIds.map((id) => commitsOf(subjects.get(id)!, [...new Set(readable.filter((todo) => todo.projectId === id).map((todo) => todo.commitId!))]))),
      getMany(noted.map((todo) => commitNoteKeys.note(todo.projectId, todo.commitId!, todo.noteId!)), { consistent: false }),
    ]);
    const commits = new Map(projectIds.map((id, i) => [id, commitMaps[i]] as const));
    const notes = new Map(noteItems.map((item) => commitNoteFromItem(item)).map((note) => [note.id, note] as const));
    const targets = new Map<number, CommitTodoTarget>();
    for (const todo of readable) {
      const subject = subjects.get(todo.projectId)!;
      const commit = commits.get(todo.projectId)?.get(todo.commitId!);
      const note = todo.noteId === undefined ? undefined : notes.get(todo.noteId);
      const noteBody = note && note.projectId === todo.projectId && note.commitSha === todo.commitId ? note.body : undefined;
      if (commit) targets.set(todo.id, { commit, noteBody, webUrl: webUrlOf(projectFullPath(subject.namespace, subject.project)) });
    }
    return targets;
  },

  async present(entries: Array<{ todo: CommitTodo; target: CommitTodoTarget }>) {
    return entries.map(({ todo, target }) => ({
      entity: presentCommit(target.commit, { projectWebUrl: target.webUrl }),
      url: `${target.webUrl}/-/commit/${target.commit.id}${todo.noteId === undefined ? '' : `#note_${todo.noteId}`}`,
      body: target.noteBody ?? commitTitle(target.commit.message),
    }));
  },
};
