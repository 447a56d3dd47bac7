/**
 * A merge request's resource events (GitLab's `API::ResourceLabelEvents`,
 * `API::ResourceStateEvents`, `API::ResourceMilestoneEvents` for merge requests): what changed its
 * labels, state (`closed`, `reopened`, `merged`) and milestone, by whom and when, oldest first and
 * paged; one by id. Recorded and read by the issues feature, as an issue's; reads need a token
 * (as an issue's) and the merge request readable (404 otherwise).
 */
import * as z from 'zod';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { projectFullPath } from '../../projects';
import type { catalog } from '../catalog';
import { findResourceEventOrNotFound, noteableResourceEvents, presentResourceEvents, type ResourceEventKind } from '../issuables';
import { mergeRequestPathParams } from './merge-requests.params';
import { findMergeRequestOf } from './find';

/** Internal: the list route of one kind. */
const listRoute = (kind: ResourceEventKind) =>
  route({
    params: z.object({ ...mergeRequestPathParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const page = paginateArray(params, link, await noteableResourceEvents(noteable, kind));
      return ok(await presentResourceEvents(page.items, projectFullPath(subject.namespace, subject.project)), page.headers);
    },
  });

/** Internal: the single-event route of one kind; `eventId` reads its path parameter. */
const showRoute = <S extends z.ZodType<{ id: string; merge_request_iid: number }>>(kind: ResourceEventKind, params: S, eventId: (params: z.output<S>) => number) =>
  route({
    params,
    handler: async ({ params: parsed, user }) => {
      const { subject, noteable } = await findMergeRequestOf(parsed, user);
      const [body] = await presentResourceEvents([await findResourceEventOrNotFound(noteable, kind, eventId(parsed))], projectFullPath(subject.namespace, subject.project));
      return ok(body);
    },
  });

const labelEventParams = z.object({ ...mergeRequestPathParams, resource_label_event_id: required(p.int()) });
const stateEventParams = z.object({ ...mergeRequestPathParams, resource_state_event_id: required(p.int()) });
const milestoneEventParams = z.object({ ...mergeRequestPathParams, resource_milestone_event_id: required(p.int()) });

export const mergeRequestResourceEventRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_label_events': listRoute('label'),
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_label_events/:resource_label_event_id': showRoute('label', labelEventParams, (x) => x.resource_label_event_id),
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events': listRoute('state'),
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events/:resource_state_event_id': showRoute('state', stateEventParams, (x) => x.resource_state_event_id),
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_milestone_events': listRoute('milestone'),
  'GET /projects/:id/merge_requests/:merge_request_iid/resource_milestone_events/:resource_milestone_event_id': showRoute('milestone', milestoneEventParams, (x) => x.resource_milestone_event_id),
} satisfies RoutesOf<typeof catalog.merge_requests>;
