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
import { pipelineMatches } from './jobs';

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

/**
 * What `GET …/pipeline_schedules/:id/pipelines` filters by (GitLab's `Ci::PipelinesFinder` with the
 * schedule's pipelines): `scope`, `status`, and the bounds of `created_at` and `updated_at`
 * (exclusive, ISO timestamps in UTC), checked on each pipeline read.
 */
export interface SchedulePipelineFilters {
  scope?: string;
  status?: string;
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
  sort?: 'asc' | 'desc';
}

function schedulePipelineMatches(pipeline: Pipeline, filters: SchedulePipelineFilters): boolean {
  if (!pipelineMatches(pipeline, { scope: filters.scope, status: filters.status })) return false;
  if (filters.createdBefore && !(pipeline.createdAt < filters.createdBefore)) return false;
  if (filters.createdAfter && !(pipeline.createdAt > filters.createdAfter)) return false;
  if (filters.updatedBefore && !(pipeline.updatedAt < filters.updatedBefore)) return false;
  return !filters.updatedAfter || pipeline.updatedAt > filters.updatedAfter;
}

/**
 * The pipelines the schedule created, by id (oldest first unless `sort=desc`): the schedule's
 * entries are read a page at a time and each page's pipelines in one batch (`mappedStream`), the
 * filters checked on them; deleted pipelines are left out.
 */
export function schedulePipelineList(scheduleId: number, filters: SchedulePipelineFilters): ListSource<Pipeline> {
  const entries = collectionStream({ collection: ciCollections.schedulePipelines(scheduleId), ascending: filters.sort !== 'desc', select: (item) => Number(item.pipelineId) });
  return mappedStream(entries, async (ids: number[]) => {
    const pipelines = await Promise.all(ids.map((id) => getPipeline(id)));
    return pipelines.map((pipeline) => (pipeline && schedulePipelineMatches(pipeline, filters) ? pipeline : undefined));
  });
}
