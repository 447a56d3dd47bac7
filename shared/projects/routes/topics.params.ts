/** Parameters of the topics routes (GitLab's `lib/api/topics.rb`; lengths: `Projects::Topic`'s validations). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import type { TopicFields } from '../store/topics';

const NAME_LIMIT = { max: 255 };
const TITLE_LIMIT = { max: 255 };
const DESCRIPTION_LIMIT = { max: 1024 };

const topicIdParam = { id: required(p.int()) };

export const listParams = z.object({ search: p.string(), without_projects: p.bool(), ...paginationParams });
export const topicParams = z.object({ ...topicIdParam });
export const createParams = z.object({ name: required(p.string(NAME_LIMIT)), title: required(p.string(TITLE_LIMIT)), description: p.clearableText(DESCRIPTION_LIMIT) });
export const updateParams = z.object({ ...topicIdParam, name: p.string(NAME_LIMIT), title: p.string(TITLE_LIMIT), description: p.clearableText(DESCRIPTION_LIMIT) });

/** The topic fields a `PUT` sets (those given; a blank or null description clears it). */
export function topicChanges(params: z.output<typeof updateParams>): Partial<TopicFields> {
  const changes: Partial<TopicFields> = {};
  if (params.name !== undefined) changes.name = params.name.trim();
  if (params.title !== undefined) changes.title = params.title;
  if (params.description !== undefined) changes.description = params.description || null;
  return changes;
}
