/**
 * An issue's resource events (GitLab's `API::ResourceLabelEvents`, `API::ResourceStateEvents`,
 * `API::ResourceMilestoneEvents` for issues): what changed its labels, state and milestone, by
 * whom and when, oldest first and paged; one by id. Reads need the issue readable (404 otherwise).
 */
import * as z from 'zod';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import type { catalog } from '../catalog';
import { presentResourceEvents } from '../presenters/resource-events';
import { findIssueOrNotFound } from '../queries/issues';
import { findResourceEventOrNotFound, noteableResourceEvents } from '../queries/resource-events';
import { issueNoteable } from '../store/issues';
import type { ResourceEventKind } from '../store/resource-events';
import { issuePathParams } from './issues.params';

const listParams = z.object({ ...issuePathParams, ...paginationParams });

/** Internal: the list route of one kind. */
const listRoute = (kind: ResourceEventKind) =>
  route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const page = paginateArray(params, link, await noteableResourceEvents(issueNoteable(issue), kind));
      return ok(await presentResourceEvents(page.items, projectFullPath(subject.namespace, subject.project)), page.headers);
    },
  });

/** Internal: the single-event route of one kind; `eventId` reads its path parameter. */
const showRoute = <S extends z.ZodType<{ id: string; issue_iid: number }>>(kind: ResourceEventKind, params: S, eventId: (params: z.output<S>) => number) =>
  route({
    params,
    handler: async ({ params: parsed, user }) => {
      const subject = await findProjectOrNotFound(parsed.id, user);
      const issue = await findIssueOrNotFound(subject, user, parsed.issue_iid);
      const event = await findResourceEventOrNotFound(issueNoteable(issue), kind, eventId(parsed));
      const [body] = await presentResourceEvents([event], projectFullPath(subject.namespace, subject.project));
      return ok(body);
    },
  });

const labelEventParams = z.object({ ...issuePathParams, resource_label_event_id: required(p.int()) });
const stateEventParams = z.object({ ...issuePathParams, resource_state_event_id: required(p.int()) });
const milestoneEventParams = z.object({ ...issuePathParams, resource_milestone_event_id: required(p.int()) });

export const resourceEventRoutes = {
  'GET /projects/:id/issues/:issue_iid/resource_label_events': listRoute('label'),
  'GET /projects/:id/issues/:issue_iid/resource_label_events/:resource_label_event_id': showRoute('label', labelEventParams, (x) => x.resource_label_event_id),
  'GET /projects/:id/issues/:issue_iid/resource_state_events': listRoute('state'),
  'GET /projects/:id/issues/:issue_iid/resource_state_events/:resource_state_event_id': showRoute('state', stateEventParams, (x) => x.resource_state_event_id),
  'GET /projects/:id/issues/:issue_iid/resource_milestone_events': listRoute('milestone'),
  'GET /projects/:id/issues/:issue_iid/resource_milestone_events/:resource_milestone_event_id': showRoute('milestone', milestoneEventParams, (x) => x.resource_milestone_event_id),
} satisfies RoutesOf<typeof catalog.issues>;
