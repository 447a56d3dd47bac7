/**
 * The todos a text creates for the users it mentions (GitLab's `TodoService#create_mention_todos`),
 * whatever its target: a new note on an issue, a merge request or a commit (`new_note` →
 * `handle_note`), a new issue's title and description (`new_issue`), an edited one's (`update_issue`:
 * only the users it did not mention before, GitLab's `skip_users`).
 *
 * - `directly_addressed` for the users whose mention opens a paragraph, `mentioned` for the others
 *   (a user directly addressed is not also mentioned);
 * - never for the text's author, only for active users who can read the target (an issue:
 *   `read_issue`, confidential rules included; a merge request: `read_merge_request`; a commit:
 *   `download_code`), each with their own access to the project;
 * - a user who already has a pending todo on the target gets no second one (GitLab without
 *   `multiple_todos`: `pending_todos` matches the target, whatever the action).
 *
 * The todos are returned as transaction items (`newTodoPuts`) for the write that carries the
 * text: it exists exactly when they do. A text without `@` mentions no one and costs no read.
 *
 * Not done: group mentions and `@all` (GitLab adds their members); resolving the author's own
 * pending todos on the target (`mark_pending_todos_as_done`); todos of an edited note's new mentions.
 */
import { can, projectAccessFor, type ProjectSubject } from '../../auth';
import { namespaceKeys } from '../../namespaces';
import { getMany } from '../../platform/dynamo/batch';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { userFromItem, userKeys, type User } from '../../users';
import { textMentions } from '../mentions';
import { canReadIssue, type IssueParties } from '../policy';
import { projectSubjects } from '../queries/issues';
import { getIssue, issueFromItem } from '../store/issues';
import type { Noteable } from '../store/noteables';
import type { Note } from '../store/notes';
import { newTodoPuts } from '../store/todos';
import type { TodoTargetKeyed } from '../store/keys';

/**
 * How many mentioned users one text gives todos to (the first ones in it): their Puts ride in the
 * transaction of the write that carries the text, which DynamoDB caps at 100 items. GitLab has no
 * such cap.
 */
export const MAX_MENTION_TODOS = 40;

/** What a mention todo points at, and who may read it. */
export interface MentionTarget extends TodoTargetKeyed {
  /** The noteable's global id; 0 for a commit. */
  targetId: number;
  /** The target's project (each mentioned user's access is computed on it). */
  subject: ProjectSubject;
  /** Whether `user`, with `subject` resolved for them (their own `access`), can read the target. */
  readableBy: (user: User, subject: ProjectSubject) => boolean;
}

/** The text that mentions, and who wrote it when. */
export interface MentionSource {
  text: string;
  authorId: number;
  createdAt: string;
  /** The note the text is (GitLab's `note_id`: the todo's `body` and `target_url` anchor). */
  noteId?: number;
  /** The text as it was before an edit: the users it mentioned get no todo (GitLab's `skip_users`). */
  before?: string;
  /** Users the same write gives a todo on the target already (new assignees). */
  skipUserIds?: number[];
}

/** Internal: the active users of these lowercased usernames (two BatchGetItems: the path claims, then the users). */
async function usersNamed(usernames: string[]): Promise<Map<string, User>> {
  if (usernames.length === 0) return new Map();
  const claims = await getMany(usernames.map((name) => namespaceKeys.claims.namespacePath(name)), { consistent: false });
  const ids = [...new Set(claims.map((claim) => claim.userId).filter((id): id is number => typeof id === 'number'))];
  const items = ids.length > 0 ? await getMany(ids.map((id) => userKeys.user(id)), { consistent: false }) : [];
  const users = items.filter((item) => !item.deleting).map((item) => userFromItem(item));
  return new Map(users.filter((user) => user.state === 'active').map((user) => [user.username.toLowerCase(), user] as const));
}

/** Internal: whether `user` can read the target, with their own access to its project. */
async function reads(user: User, target: MentionTarget): Promise<boolean> {
  const access = await projectAccessFor(user, target.subject.project, target.subject.namespace);
  return target.readableBy(user, { ...target.subject, access });
}

/**
 * The transaction items of the todos `source` creates on `target` (none when it mentions no one
 * who gets one). Reads: the mentioned users, their access to the project, and their pending todos
 * on the target (one consistent BatchGetItem); ids come from the sequence `todos`.
 * @param limit at most this many users get a todo (the room left in the caller's transaction).
 * @example
 * const items = await mentionTodoItems(target, { text: note.body, authorId: note.authorId, createdAt: note.createdAt, noteId: note.id });
 */
export async function mentionTodoItems(target: MentionTarget, source: MentionSource, limit = MAX_MENTION_TODOS): Promise<TransactItem[]> {
  if (!source.text.includes('@') || limit <= 0) return [];
  const { directlyAddressed, mentioned } = textMentions(source.text);
  const skipped = new Set(source.before?.includes('@') ? textMentions(source.before).mentioned : []);
  const names = [...new Set([...directlyAddressed, ...mentioned])].filter((name) => !skipped.has(name)).slice(0, Math.min(limit, MAX_MENTION_TODOS));
  const byName = await usersNamed(names);
  const candidates = names.map((name) => byName.get(name)).filter((user): user is User => user !== undefined && user.id !== source.authorId && !source.skipUserIds?.includes(user.id));
  const readable = await Promise.all(candidates.map((user) => reads(user, target)));
  const recipients = candidates.filter((_user, i) => readable[i]);
  if (recipients.length === 0) return [];
  const addressed = new Set(directlyAddressed);
  const todos = recipients.map((user) => ({ userId: user.id, actionName: addressed.has(user.username.toLowerCase()) ? ('directly_addressed' as const) : ('mentioned' as const) }));
  return newTodoPuts(target, todos, source);
}

/** The text of an issue that mentions (GitLab's `attr_mentionable :title, :description`): the title is a paragraph of its own. */
export const issueMentionText = (issue: { title: string; description: string | null }): string => `${issue.title}\n\n${issue.description ?? ''}`;

/**
 * An issue as a mention target: readable under `read_issue`, a confidential one by its author,
 * assignees, reporters and up.
 */
export const issueMentionTarget = (subject: ProjectSubject, issue: IssueParties & { iid: number; id: number; projectId: number }): MentionTarget => ({
  targetType: 'Issue',
  projectId: issue.projectId,
  targetIid: issue.iid,
  targetId: issue.id,
  subject,
  readableBy: (user, userSubject) => canReadIssue(user, userSubject, issue),
});

/**
 * The todos of a new note on a noteable (an issue or a merge request) by `author`: none for a
 * system note, nor for a text without `@` (no read). Reads the project (and, for an issue whose
 * item the caller did not hold, the issue, for its confidentiality).
 */
export async function noteMentionTodoItems(noteable: Noteable, note: Note, author: User): Promise<TransactItem[]> {
  if (note.system || !note.body.includes('@')) return [];
  const subject = (await projectSubjects(author, [noteable.projectId])).get(noteable.projectId);
  if (!subject) return [];
  const source = { text: note.body, authorId: note.authorId, createdAt: note.createdAt, noteId: note.id };
  if (noteable.type === 'MergeRequest') {
    const target: MentionTarget = {
      targetType: 'MergeRequest',
      projectId: noteable.projectId,
      targetIid: noteable.iid,
      targetId: noteable.id,
      subject,
      readableBy: (user, userSubject) => can(user, 'read_merge_request', userSubject),
    };
    return mentionTodoItems(target, source);
  }
  const held = noteable.item.held?.();
  const issue = held ? issueFromItem(held) : await getIssue(noteable.projectId, noteable.iid);
  if (!issue || issue.deletedAt) return [];
  return mentionTodoItems(issueMentionTarget(subject, issue), source);
}

/** A new commit note, as the repository feature hands it over. */
export interface CommitNoteMention {
  /** The note's project (its project and namespace: each mentioned user's access is computed on them). */
  subject: ProjectSubject;
  note: { id: number; body: string; authorId: number; commitSha: string; createdAt: string };
}

/**
 * The todos of a new commit note (readable under `download_code`): the repository feature, which
 * cannot import this one, asks for them through the hook the composition root wires
 * (`mentionTodosWith(commitMentionTodos)`) and puts them in the note's transaction.
 * @example
 * const items = await commitMentionTodos({ subject, note });
 */
export function commitMentionTodos({ subject, note }: CommitNoteMention): Promise<TransactItem[]> {
  const target: MentionTarget = {
    targetType: 'Commit',
    projectId: subject.project.id,
    targetIid: 0,
    targetId: 0,
    commitId: note.commitSha,
    subject,
    readableBy: (user, userSubject) => can(user, 'download_code', userSubject),
  };
  return mentionTodoItems(target, { text: note.body, authorId: note.authorId, createdAt: note.createdAt, noteId: note.id });
}
