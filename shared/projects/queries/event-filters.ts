/**
 * The filters of every event feed (`GET /events`, `/users/:id/events`, `/projects/:id/events`),
 * as GitLab's `EventFilter` and `EventsFinder`: `action`, `target_type`, `before`, `after` (days,
 * exclusive) and `sort` (by id, which is time order).
 */
import type * as z from 'zod';
import { collectionStream, type CollectionSource, type StreamSource } from '../../platform/http/pagination';
import { p } from '../../platform/http/params';
import { PUSH_ACTION_NAMES, type ContributionEvent } from '../store/events';

/** GitLab's action filter values and the `action_name`s each stands for. */
const ACTIONS = {
  created: ['created', 'opened'],
  updated: ['updated'],
  closed: ['closed'],
  reopened: ['reopened'],
  pushed: [...PUSH_ACTION_NAMES],
  commented: ['commented on'],
  merged: ['accepted'],
  joined: ['joined'],
  left: ['left'],
  destroyed: ['destroyed'],
  expired: ['expired'],
  approved: ['approved'],
} as const;

/** GitLab's `target_type` values and the target class each stands for. */
const TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
  wiki: 'WikiPage::Meta',
  design: 'DesignManagement::Design',
} as const;

const keysOf = <T extends object>(object: T) => Object.keys(object) as [keyof T & string, ...Array<keyof T & string>];

export const eventFilterParams = {
  action: p.oneOf(keysOf(ACTIONS)),
  target_type: p.oneOf(keysOf(TARGET_TYPES)),
  before: p.date(),
  after: p.date(),
  sort: p.oneOf(['asc', 'desc']),
};

export type EventFilters = { [K in keyof typeof eventFilterParams]?: z.output<(typeof eventFilterParams)[K]> };

/** Whether a feed is read oldest first. */
export const readsAscending = (filters: EventFilters): boolean => filters.sort === 'asc';

/**
 * A feed with the filters applied to what it reads. The feed is read in id (time) order, so it
 * ends at the first event beyond the far date bound (`after` when newest first, `before` when
 * oldest first) instead of reading on; `action` and `target_type` are checked on each event.
 */
export function filterEvents<E extends ContributionEvent>(feed: CollectionSource<E> | StreamSource<E>, filters: EventFilters): StreamSource<E> {
  const source = 'collection' in feed ? collectionStream(feed) : feed;
  const actions = filters.action && new Set<string>(ACTIONS[filters.action]);
  const targetType = filters.target_type && TARGET_TYPES[filters.target_type];
  // Events of a day D are "after" D-1 and "before" D+1; ISO times compare as strings.
  const before = filters.before && `${filters.before}T00:00:00.000Z`;
  const after = filters.after && `${filters.after}T23:59:59.999Z`;
  if (!actions && !targetType && !before && !after) return source;
  const ascending = readsAscending(filters);
  return {
    async *read(cursor, hint) {
      for await (const entry of source.read(cursor, hint)) {
        const event = entry.value;
        if (event && (ascending ? before && event.createdAt >= before : after && event.createdAt <= after)) return;
        const matches =
          event !== undefined &&
          (!actions || actions.has(event.actionName)) &&
          (!targetType || event.targetType === targetType) &&
          (!before || event.createdAt < before) &&
          (!after || event.createdAt > after);
        // Not `beyondHint`: a date bound can end this list before its source's end.
        yield { value: matches ? event : undefined, cursor: entry.cursor };
      }
    },
  };
}
