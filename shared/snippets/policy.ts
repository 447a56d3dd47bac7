/**
 * Which snippet a caller may read, edit and delete. Project snippets: GitLab's `ProjectSnippetPolicy` with the
 * `SnippetsFinder` filter), built from the project abilities of `abilities.ts`: public snippets
 * to whoever reads the project's snippets, internal ones to signed-in users who are not external,
 * private ones to the project's members; authors always see theirs. Maintainers edit and delete
 * others' snippets, but not internal ones (GitLab prevents it); admins everything. Personal
 * snippets: GitLab's `PersonalSnippetPolicy`: public ones to anyone (anonymous too), internal ones
 * to signed-in users who are not external, private ones to their author and admins; only their
 * author edits and deletes them (the API finds them among the caller's own).
 */
import { can, isAdmin, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';
import type { Snippet } from './store/snippets';

const isAuthor = (user: Caller | null, snippet: Snippet) => user !== null && user.id === snippet.authorId;

export function canReadSnippet(user: Caller | null, subject: ProjectSubject, snippet: Snippet): boolean {
  if (snippet.visibility === 'public' || isAuthor(user, snippet) || can(user, 'read_all_snippets', subject)) return true;
  return snippet.visibility === 'internal' && user !== null && !user.external;
}

export function canUpdateSnippet(user: Caller | null, subject: ProjectSubject, snippet: Snippet): boolean {
  if (isAdmin(user) || isAuthor(user, snippet)) return true;
  return snippet.visibility !== 'internal' && can(user, 'admin_snippets', subject);
}

export function canDeleteSnippet(user: Caller | null, subject: ProjectSubject, snippet: Snippet): boolean {
  if (!canUpdateSnippet(user, subject, snippet)) return false;
  return !isAuthor(user, snippet) || can(user, 'delete_own_snippet', subject);
}

export function canReadPersonalSnippet(user: Caller | null, snippet: Snippet): boolean {
  // (`isAdmin` narrows: read it as a plain boolean.)
  const admin: boolean = isAdmin(user);
  if (snippet.visibility === 'public' || isAuthor(user, snippet) || admin) return true;
  return snippet.visibility === 'internal' && user !== null && !user.external;
}

/** GitLab's global `create_snippet`: every signed-in user but external ones. */
export const canCreatePersonalSnippet = (user: Caller): boolean => !user.external;
