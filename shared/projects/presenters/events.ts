import { type User, presentUserPublic } from '../../users';
import { PUSH_ACTION_NAMES, type ContributionEvent, type EventNote } from '../store/events';
import { getUsersById } from '../store/lookups';

/** The Event entity of the project and user feeds. */
export function presentEvent(event: ContributionEvent, author: User) {
  return {
    id: event.id,
    title: event.title,
    project_id: event.projectId,
    action_name: event.actionName,
    target_id: event.targetId,
    target_type: event.targetType,
    author_id: event.authorId,
    target_title: event.targetTitle,
    data: event.data,
    created_at: event.createdAt,
    ...(event.note ? { note: presentEventNote(event.note, author) } : {}),
    author: presentUserPublic(author),
    ...wikiPageOf(event),
    ...pushDataOf(event),
    author_username: author.username,
  };
}

/**
 * The `wiki_page` of a wiki page's event (GitLab's `WikiPageBasic`): the page as the event left it.
 * GitLab looks the page up when presenting (`null` once it is gone); here a `destroyed` event shows
 * `null` (the page it names is gone) and the others the page as written then, not after later
 * renames.
 */
function wikiPageOf(event: ContributionEvent): { wiki_page?: { format: string; slug: string; title: string } | null } {
  if (event.targetType !== 'WikiPage::Meta') return {};
  if (event.actionName === 'destroyed' || !event.wikiPage) return { wiki_page: null };
  const { format, slug, title } = event.wikiPage;
  return { wiki_page: { format, slug, title } };
}

const ZERO_OID = '0'.repeat(40);

/**
 * GitLab's `push_data` of a push event (`API::Entities::PushEventPayload`), from the push data the
 * event holds: for one ref, `{before, after, ref, commits (the newest), total_commits_count, ...}`;
 * for a bulk push (many refs at once), `{action, ref_count, ref_type}`. Other events have none.
 * `commit_title` is the newest commit's first line, cut to 70 characters (`PushEventPayloadService`).
 */
function pushDataOf(event: ContributionEvent): { push_data?: Record<string, unknown> } {
  const data = event.data;
  if (!data || !PUSH_ACTION_NAMES.has(event.actionName)) return {};
  if (typeof data.ref_count === 'number') {
    return {
      push_data: {
        commit_count: 0,
        action: data.action,
        ref_type: data.ref_type,
        commit_from: null,
        commit_to: null,
        ref: null,
        commit_title: null,
        ref_count: data.ref_count,
      },
    };
  }
  if (typeof data.ref !== 'string') return {};
  const created = data.before === ZERO_OID;
  const removed = data.after === ZERO_OID;
  const commits = Array.isArray(data.commits) ? (data.commits as Array<{ message?: unknown }>) : [];
  const newest = commits[commits.length - 1];
  return {
    push_data: {
      commit_count: data.total_commits_count ?? 0,
      action: created ? 'created' : removed ? 'removed' : 'pushed',
      ref_type: data.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
      commit_from: created ? null : data.before,
      commit_to: removed ? null : data.after,
      ref: data.ref.replace(/^refs\/(heads|tags|remotes)\//, ''),
      commit_title: typeof newest?.message === 'string' ? pushCommitTitle(newest.message) : null,
      ref_count: null,
    },
  };
}

/** `PushEventPayloadService#commit_title`: the first line, stripped, at most 70 characters (Rails' `truncate`). */
function pushCommitTitle(message: string): string {
  const end = message.indexOf('\n');
  // Ruby's `strip`: white space and NUL at both ends.
  const line = Array.from((end >= 0 ? message.slice(0, end + 1) : message).replace(/^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g, ''));
  return line.length > 70 ? `${line.slice(0, 67).join('')}...` : line.join('');
}

/**
 * The Note entity inside a `commented on` event. Events written before notes were stored as data
 * hold the presented form already (with `noteable_id`), and are returned as they are.
 */
function presentEventNote(note: EventNote | Record<string, unknown>, author: User) {
  if ('noteable_id' in note) return note;
  const { id, body, createdAt, system, noteableId, noteableType } = note as EventNote;
  return {
    id,
    body,
    attachment: null,
    author: presentUserPublic(author),
    created_at: createdAt,
    system,
    noteable_id: noteableId,
    noteable_type: noteableType,
  };
}

/**
 * Events of any authors: loads the authors in one batch read; an event whose author is gone is left
 * out. The user deletion job deletes a deleted user's events (`commands/remove-user-events.ts`);
 * only an event written in another write's transaction by a request that authenticated before the
 * deletion mark and landed after the job's walk reaches this.
 */
export async function presentEvents(events: ContributionEvent[]) {
  const authors = new Map((await getUsersById([...new Set(events.map((e) => e.authorId))])).map((author) => [author.id, author] as const));
  return events.flatMap((event) => {
    const author = authors.get(event.authorId);
    return author ? [presentEvent(event, author)] : [];
  });
}
