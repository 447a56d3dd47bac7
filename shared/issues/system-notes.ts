/**
 * The bodies of the system notes a change to an issue or a merge request leaves behind (GitLab's
 * `SystemNoteService`), in GitLab's wording, with references by name (`~bug`, `~"needs review"`,
 * `%v1.0`, `@alice`, `!7`) so they read the same through the API as in the web UI. Pure functions.
 */

/**
 * What changed on an issue (or a merge request: no `confidential`, no `dueDate`) that a system
 * note tells, each part given only when it changed.
 */
export interface IssueChangeSummary {
  state?: 'closed' | 'reopened';
  title?: { from: string; to: string };
  description?: true;
  labels?: { added: string[]; removed: string[] };
  /** The new milestone's title, or `null` when removed. */
  milestone?: string | null;
  assignees?: { added: string[]; removed: string[] };
  /** The new due date (`YYYY-MM-DD`), or `null` when removed. */
  dueDate?: string | null;
  confidential?: boolean;
}

/** Internal: `~name`, quoted when the name is not a plain word (GitLab's reference format). */
const reference = (prefix: string, name: string) => (/^[\w\-.?&]+$/.test(name) ? `${prefix}${name}` : `${prefix}"${name}"`);

const plural = (names: string[], noun: string) => `${names.join(' ')} ${noun}${names.length > 1 ? 's' : ''}`;

/** `added ~a ~b labels and removed ~c label`. */
export function labelsNote(added: string[], removed: string[]): string {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`added ${plural(added.map((name) => reference('~', name)), 'label')}`);
  if (removed.length > 0) parts.push(`removed ${plural(removed.map((name) => reference('~', name)), 'label')}`);
  return parts.join(' and ');
}

/** `assigned to @b and unassigned @a`. */
export function assigneesNote(added: string[], removed: string[]): string {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`assigned to ${added.map((name) => `@${name}`).join(', ')}`);
  if (removed.length > 0) parts.push(`unassigned ${removed.map((name) => `@${name}`).join(', ')}`);
  return parts.join(' and ');
}

/** `November 30, 2026` (Rails' long date format, which GitLab's due date note uses). */
function longDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const name = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return `${name} ${day}, ${year}`;
}

/** The system notes of one change, in the order GitLab writes them. */
export function systemNotesFor(change: IssueChangeSummary): string[] {
  const notes: string[] = [];
  if (change.title) notes.push(`changed title from **${change.title.from}** to **${change.title.to}**`);
  if (change.description) notes.push('changed the description');
  if (change.labels && (change.labels.added.length > 0 || change.labels.removed.length > 0)) {
    notes.push(labelsNote(change.labels.added, change.labels.removed));
  }
  if (change.milestone !== undefined) {
    notes.push(change.milestone === null ? 'removed milestone' : `changed milestone to ${reference('%', change.milestone)}`);
  }
  if (change.assignees && (change.assignees.added.length > 0 || change.assignees.removed.length > 0)) {
    notes.push(assigneesNote(change.assignees.added, change.assignees.removed));
  }
  if (change.dueDate !== undefined) notes.push(change.dueDate === null ? 'removed due date' : `changed due date to ${longDate(change.dueDate)}`);
  if (change.confidential !== undefined) {
    notes.push(change.confidential ? 'made the issue confidential' : 'made the issue visible to everyone');
  }
  if (change.state) notes.push(change.state);
  return notes;
}

/** `moved to group/project#7` or `moved from group/project#3`. */
export const movedNote = (direction: 'to' | 'from', pathWithNamespace: string, iid: number) => `moved ${direction} ${pathWithNamespace}#${iid}`;

/**
 * A state change (`SystemNotes::IssuablesService#change_status`): `merged`, `closed`, `reopened`,
 * with what caused it, as GitLab's `gfm_reference` (`merge request !7`, `merge request group/project!7`).
 * @example statusNote('closed', 'merge request !7'); // 'closed via merge request !7'
 */
export const statusNote = (status: 'merged' | 'closed' | 'reopened', source?: string) => (source ? `${status} via ${source}` : status);

/**
 * The reference to a merge request from a note in `fromProjectId` (GitLab's `to_reference`):
 * `!7` in its own project, else its project's full path before it.
 * @param mergeRequest.reference its full reference (`group/project!7`)
 */
export function mergeRequestReference(mergeRequest: { projectId: number; iid: number; reference: string }, fromProjectId: number): string {
  return mergeRequest.projectId === fromProjectId ? `!${mergeRequest.iid}` : mergeRequest.reference;
}

/** Internal: HTML-escapes text (Rails' `content_tag` escapes what it wraps). */
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A commit as the commit notes list it. */
export interface NotedCommit {
  /** The full or short id (8 characters are shown, GitLab's `short_id`). */
  id: string;
  /** The first line of its message. */
  title: string;
}

/**
 * Commits pushed to a merge request's source branch (`SystemNotes::CommitService#add_commits`):
 * `added N commit(s)`, the list of the new ones (`<ul><li>1a2b3c4d - Fix the parser</li>…</ul>`,
 * after a summary line of the `existing` ones, e.g. when the target branch moved), and a link to
 * compare with the previous version when `comparePath` is given.
 *
 * @example
 * addedCommitsNote([{ id: '1a2b3c4d5e6f', title: 'Fix the parser' }]);
 * // 'added 1 commit\n\n<ul><li>1a2b3c4d - Fix the parser</li></ul>'
 */
export function addedCommitsNote(
  commits: NotedCommit[],
  options: { existing?: { commits: NotedCommit[]; branch: string; oldrev?: string }; comparePath?: string } = {},
): string {
  const short = (id: string) => id.slice(0, 8);
  const existing = options.existing?.commits ?? [];
  const total = commits.length + existing.length;
  let summary = '';
  if (existing.length > 0) {
    const { branch, oldrev } = options.existing!;
    const ids =
      existing.length === 1
        ? short(existing[0].id)
        : oldrev && !/^0+$/.test(oldrev)
          ? `${short(oldrev)}...${short(existing[existing.length - 1].id)}`
          : `${short(existing[0].id)}..${short(existing[existing.length - 1].id)}`;
    summary = `<li>${ids} - ${existing.length} commit${existing.length === 1 ? '' : 's'} from branch <code>${escapeHtml(branch)}</code></li>`;
  }
  const list = commits.map((commit) => `<li>${short(commit.id)} - ${escapeHtml(commit.title)}</li>`).join('');
  const parts = [`added ${total} commit${total === 1 ? '' : 's'}`, `<ul>${summary}${list}</ul>`];
  if (options.comparePath) parts.push(`[Compare with previous version](${options.comparePath})`);
  return parts.join('\n\n');
}

/**
 * A merge request's target branch changed (`SystemNotes::MergeRequestsService#change_branch`).
 * @example targetBranchNote('main', 'release'); // 'changed target branch from `main` to `release`'
 */
export const targetBranchNote = (from: string, to: string) => `changed target branch from \`${from}\` to \`${to}\``;
