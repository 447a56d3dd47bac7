/**
 * Resource events of issues and merge requests (GitLab's `resource_label_events`,
 * `resource_state_events`, `resource_milestone_events`): what a write changed in their labels (one
 * event per label added or removed), their milestone (one event: `add` the new one, or `remove`
 * the old one) and their state (`closed`, `reopened`, a merge request's `merged`; none on create,
 * as GitLab), by whom and when.
 *
 * They are derived from the issue or merge request as read and as written (`resourceEventPuts`),
 * so every write path that goes through `writeIssues` with an actor, and every merge request
 * write (its `mergeRequestEffects`), records them in its own transaction: the events exist
 * exactly when the change does. The events of one kind of one write are one item
 * (`issueKeys.resourceEvents`, under its first event's id; the ids of a write are consecutive,
 * from one `ADD` on the kind's sequence), so a write adds at most three operations to its
 * transaction however many labels it changes.
 */
import { deleteMany, putMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { nextIds } from '../../platform/dynamo/counters';
import type { Key } from '../../platform/dynamo/keys';
import { queryAll, queryCollection, isId, type Item } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { Issue } from './issues';
import { issueCollections, issueKeys, issueSequences, type NoteableKeyed, type ResourceEventKind } from './keys';

export type { ResourceEventKind } from './keys';

/** Who made a write, and what caused a state change (a merge request merged, a commit pushed). */
export interface ResourceEventActor {
  userId: number;
  /** The merge request whose merge closed the issue (GitLab's `source_merge_request_id`). */
  sourceMergeRequestId?: number | null;
  /** The commit that closed the issue (GitLab's `source_commit`). */
  sourceCommit?: string | null;
}

/** One event as recorded (within its write's item). */
export interface RecordedEvent {
  id: number;
  /** `add` / `remove` (labels, milestones). */
  action?: 'add' | 'remove';
  labelId?: number;
  /**
   * The project of `labelId` when it is not the issue's: the events copied to a moved issue keep
   * naming the source project's label, as GitLab's copies keep their `label_id`.
   */
  labelProjectId?: number;
  /** Absent on a milestone event whose milestone is gone (a moved issue's copied `remove`). */
  milestoneId?: number;
  /** `closed` / `reopened`, a merge request's `merged` (state events). */
  state?: 'closed' | 'reopened' | 'merged';
  /** A milestone event's issue or merge request state at the time (`opened`, `closed`, `merged`). */
  issueState?: string;
}

/** One resource event of an issue or merge request, with what its write shares. */
export interface ResourceEvent extends RecordedEvent {
  kind: ResourceEventKind;
  /** `resource_type`. */
  resourceType: ResourceTarget['type'];
  projectId: number;
  /** The issue's or merge request's iid (the attribute kept its first name). */
  issueIid: number;
  /** The issue's or merge request's global id (`resource_id`). */
  issueId: number;
  userId: number;
  createdAt: string;
  sourceMergeRequestId: number | null;
  sourceCommit: string | null;
}

/**
 * What resource events are recorded of: an issue, or a merge request (whose `locked`, a merge in
 * progress, counts as `opened`).
 */
export type ResourceTarget = Pick<Issue, 'projectId' | 'iid' | 'id' | 'labelIds' | 'milestoneId' | 'updatedAt' | 'deletedAt'> & {
  type: 'Issue' | 'MergeRequest';
  state: string;
};

/** An issue as a resource event target. */
export const issueTarget = (issue: Issue): ResourceTarget => ({ ...issue, type: 'Issue' });

/** Internal: a state as its events see it (a merge in progress is still open). */
const stateOf = (target: ResourceTarget) => (target.state === 'locked' ? 'opened' : target.state);

/** Internal: the state event of a change of state, if it makes one. */
function stateEvent(previous: ResourceTarget | undefined, next: ResourceTarget): Array<Omit<RecordedEvent, 'id'>> {
  if (!previous || stateOf(previous) === stateOf(next)) return [];
  const state = stateOf(next);
  return [{ state: state === 'closed' ? 'closed' : state === 'merged' ? 'merged' : 'reopened' }];
}

/** Internal: the events of one kind a change makes (without ids). */
function eventsOf(previous: ResourceTarget | undefined, next: ResourceTarget): Record<ResourceEventKind, Array<Omit<RecordedEvent, 'id'>>> {
  const none = { label: [], state: [], milestone: [] };
  if (next.deletedAt) return none;
  const before = previous?.labelIds ?? [];
  const label = [
    ...next.labelIds.filter((id) => !before.includes(id)).map((labelId) => ({ action: 'add' as const, labelId })),
    ...before.filter((id) => !next.labelIds.includes(id)).map((labelId) => ({ action: 'remove' as const, labelId })),
  ];
  const oldMilestone = previous?.milestoneId ?? null;
  const milestone =
    next.milestoneId === oldMilestone
      ? []
      : next.milestoneId === null
        ? [{ action: 'remove' as const, milestoneId: oldMilestone!, issueState: stateOf(next) }]
        : [{ action: 'add' as const, milestoneId: next.milestoneId, issueState: stateOf(next) }];
  return { label, state: stateEvent(previous, next), milestone };
}

/**
 * The Puts of the resource events a write of `previous` (absent: a new issue or merge request)
 * into `next` makes, by `actor`, for the write's transaction: at most one item per kind. None for
 * a deletion.
 * @example
 * const puts = await resourceEventPuts(issueTarget(issue), issueTarget({ ...issue, state: 'closed' }), { userId: 1 });
 */
export async function resourceEventPuts(previous: ResourceTarget | undefined, next: ResourceTarget, actor: ResourceEventActor): Promise<TransactItem[]> {
  const events = eventsOf(previous, next);
  const kinds = (Object.keys(events) as ResourceEventKind[]).filter((kind) => events[kind].length > 0);
  const ids = await Promise.all(kinds.map((kind) => nextIds(issueSequences.resourceEvents(kind), events[kind].length)));
  const createdAt = next.updatedAt;
  return kinds.map((kind, k) => ({
    Put: {
      TableName: tableName(),
      Item: {
        ...issueKeys.resourceEvents(next, kind, ids[k][0]),
        type: 'ResourceEvents',
        kind,
        ...(next.type === 'Issue' ? {} : { resourceType: next.type }),
        projectId: next.projectId,
        issueIid: next.iid,
        issueId: next.id,
        userId: actor.userId,
        createdAt,
        ...(kind === 'state' ? { sourceMergeRequestId: actor.sourceMergeRequestId ?? null, sourceCommit: actor.sourceCommit ?? null } : {}),
        events: events[kind].map((event, i) => ({ id: ids[k][i], ...event })),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));
}

/** Internal: the events of one item. */
const eventsFromItem = (item: Item): ResourceEvent[] =>
  (item.events as RecordedEvent[]).map((event) => ({
    ...event,
    kind: item.kind,
    resourceType: item.resourceType ?? 'Issue',
    projectId: Number(item.projectId),
    issueIid: Number(item.issueIid),
    issueId: Number(item.issueId),
    userId: Number(item.userId),
    createdAt: item.createdAt,
    sourceMergeRequestId: item.sourceMergeRequestId ?? null,
    sourceCommit: item.sourceCommit ?? null,
  }));

/**
 * The events of one kind of one issue or merge request, oldest first (by id). One Query of its
 * items of that kind: bounded by its history (one item per write that changed it), not by its project.
 */
export async function listResourceEvents(resource: NoteableKeyed, kind: ResourceEventKind): Promise<ResourceEvent[]> {
  if (!isId(resource.iid)) return [];
  return (await queryAll(issueCollections.resourceEvents(resource, kind))).flatMap(eventsFromItem);
}

/**
 * One event of an issue or merge request by kind and id: the item holding it is the last one
 * starting at or before the id (one Query, descending, of one item).
 */
export async function getResourceEvent(resource: NoteableKeyed, kind: ResourceEventKind, id: number): Promise<ResourceEvent | undefined> {
  if (!isId(resource.iid) || !isId(id)) return undefined;
  const prefix = issueCollections.resourceEvents(resource, kind).prefix!;
  for await (const item of queryCollection(issueCollections.resourceEventsUpTo(resource, kind, id), { ascending: false, pageSize: 1 })) {
    if (!String(item.SK).startsWith(prefix)) return undefined;
    return eventsFromItem(item).find((event) => event.id === id);
  }
  return undefined;
}

/** How many source items a copy reads, maps and writes at a time. */
const COPY_BATCH = 25;

/**
 * Copies the resource events of the issue `from` to the issue `to` (a moved issue, not yet
 * reachable: GitLab's `CopyResourceEventsService`), kind by kind, oldest first, in batches of
 * {@link COPY_BATCH} items: each batch is one Query page, one id allocation per kind and one
 * BatchWriteItem, so a long history costs batches, never one oversized request. `map` gives each
 * event's copy, or `undefined` to drop it; a copy keeps its write's user, time and state source
 * and takes new ids (consecutive within its item, in the source's order).
 *
 * Returns the keys written, for {@link removeResourceEventCopies} when the move fails: nothing
 * reads them before the moved issue exists (its iid is new), so a retried move just copies again.
 * @example
 * const keys = await copyResourceEvents(original, moved, async (kind, event) => event);
 */
export async function copyResourceEvents(
  from: Pick<Issue, 'projectId' | 'iid'>,
  to: Pick<Issue, 'projectId' | 'iid' | 'id'>,
  map: (kind: ResourceEventKind, event: RecordedEvent) => Promise<Omit<RecordedEvent, 'id'> | undefined>,
): Promise<Key[]> {
  const written: Key[] = [];
  const copyBatch = async (kind: ResourceEventKind, batch: Item[]) => {
    const mapped = await Promise.all(
      batch.map(async (item) => {
        const copies = await Promise.all((item.events as RecordedEvent[]).map((event) => map(kind, event)));
        return { item, events: copies.filter((copy) => copy !== undefined) };
      }),
    );
    const kept = mapped.filter(({ events }) => events.length > 0);
    const ids = await nextIds(issueSequences.resourceEvents(kind), kept.reduce((sum, { events }) => sum + events.length, 0));
    let next = 0;
    const items = kept.map(({ item, events }) => {
      const eventIds = ids.slice(next, (next += events.length));
      return {
        ...issueKeys.resourceEvents({ type: 'Issue', projectId: to.projectId, iid: to.iid }, kind, eventIds[0]),
        type: 'ResourceEvents',
        kind,
        projectId: to.projectId,
        issueIid: to.iid,
        issueId: to.id,
        userId: item.userId,
        createdAt: item.createdAt,
        ...(kind === 'state' ? { sourceMergeRequestId: item.sourceMergeRequestId ?? null, sourceCommit: item.sourceCommit ?? null } : {}),
        events: events.map((event, i) => ({ ...event, id: eventIds[i] })),
      };
    });
    await putMany(items);
    written.push(...items.map((item) => ({ PK: item.PK, SK: item.SK })));
  };
  for (const kind of ['label', 'milestone', 'state'] as const) {
    if (!isId(from.iid)) break;
    let batch: Item[] = [];
    for await (const item of queryCollection(issueCollections.resourceEvents({ type: 'Issue', projectId: from.projectId, iid: from.iid }, kind), { pageSize: COPY_BATCH })) {
      batch.push(item);
      if (batch.length < COPY_BATCH) continue;
      await copyBatch(kind, batch);
      batch = [];
    }
    if (batch.length > 0) await copyBatch(kind, batch);
  }
  return written;
}

/** Removes the copies {@link copyResourceEvents} wrote (the cleanup of a failed move). */
export const removeResourceEventCopies = (keyList: Key[]) => deleteMany(keyList);
