/**
 * Reads of pipeline schedules: a project's list (newest first, GitLab's `PipelineSchedulesFinder`;
 * `scope` active/inactive checked after the read: a project holds few schedules), one by id (a
 * missing one, or one the caller may not read, is GitLab's `404 Pipeline Schedule Not Found`), its
 * last pipeline, and the pipelines it created (oldest first by default, as GitLab's `sort=asc`).
 */
import { NotFoundError } from '../../platform/http/errors';
import { collectionStream, mappedStream, type CollectionSource, type ListSource } from '../../platform/http/pagination';
import { isId } from '../../platform/dynamo/query';
import { SCHEDULE_NOT_FOUND } from '../commands/schedules';
import { ciCollections } from '../store/keys';
import { getPipeline, type Pipeline } from '../store/pipelines';
import { getSchedule, lastSchedulePipelineId, scheduleFromItem, type Schedule } from '../store/schedules';
import type { PipelineStatus } from '../status';

/** A project's schedules, newest first; `scope` keeps the active or the inactive ones. */
export function scheduleList(projectId: number, scope: 'active' | 'inactive' | undefined): CollectionSource<Schedule> {
  return {
    collection: ciCollections.schedules(projectId),
    ascending: false,
    select: (item) => {
      const schedule = scheduleFromItem(item);
      return scope === undefined || schedule.active === (scope === 'active') ? schedule : undefined;
    },
  };
}

/** The project's schedule of that id; `404 Pipeline Schedule Not Found` otherwise. */
export async function findScheduleOrNotFound(projectId: number, scheduleId: number): Promise<Schedule> {
  const schedule = isId(scheduleId) ? await getSchedule(projectId, scheduleId) : undefined;
  if (!schedule) throw new NotFoundError(SCHEDULE_NOT_FOUND);
  return schedule;
}

/** The newest pipeline the schedule created (null: none, or deleted since). */
export async function lastSchedulePipeline(schedule: Schedule): Promise<Pipeline | null> {
  const id = await lastSchedulePipelineId(schedule.id);
  return (id !== undefined && (await getPipeline(id))) || null;
}

/** What `GET …/pipeline_schedules/:id/pipelines` filters by (checked on each pipeline read). */
export interface SchedulePipelineFilters {
  statuses?: readonly PipelineStatus[];
  sort?: 'asc' | 'desc';
}

/** The pipelines the schedule created, by id (a page's pipelines read in one batch; deleted ones left out). */
export function schedulePipelineList(scheduleId: number, filters: SchedulePipelineFilters): ListSource<Pipeline> {
  const entries = collectionStream({ collection: ciCollections.schedulePipelines(scheduleId), ascending: filters.sort !== 'desc', select: (item) => Number(item.pipelineId) });
  return mappedStream(entries, async (ids: number[]) => {
    const pipelines = await Promise.all(ids.map((id) => getPipeline(id)));
    return pipelines.map((pipeline) => (pipeline && (!filters.statuses || filters.statuses.includes(pipeline.status)) ? pipeline : undefined));
  });
}
