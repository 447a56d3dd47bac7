/**
 * The bodies of the system notes an issue change leaves behind (GitLab's `SystemNoteService`),
 * in GitLab's wording, with references by name (`~bug`, `~"needs review"`, `%v1.0`, `@alice`) so
 * they read the same through the API as in the web UI.
 */

/** What changed on an issue that a system note tells, each part given only when it changed. */
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
