/**
 * What a user does to a merge request besides editing it (GitLab's `subscribable`, `todo` and
 * `time_tracking_endpoints` of merge requests): subscribe and unsubscribe (201 with the merge
 * request, 304 when nothing changes), mark a todo (201, 304 when one is pending), track time
 * (`admin_merge_request`: developers and above; reading the stats needs only read access).
 */
import { authorize } from '../../auth';
import * as z from 'zod';
import { prepareHookEvent } from '../../hooks';
import { NotModifiedError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { created, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { markTodo, mergeRequestNoteable, presentTodos, subscribe, trackTime, unsubscribe, type TimeAction } from '../issuables';
import { presentTimeStats } from '../../issues';

import { presentMergeRequest } from '../presenters/merge-requests';
import { findMergeRequestOrNotFound } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';
import '../webhooks/events';
import { mergeRequestPathParams } from './merge-requests.params';
import { findMergeRequestOf } from './find';

const byMergeRequest = z.object(mergeRequestPathParams);
const withDuration = z.object({ ...mergeRequestPathParams, duration: required(p.string()) });

/** Internal: a subscription route. */
const subscriptionRoute = (change: typeof subscribe) =>
  route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      if (!(await change(noteable, user))) throw new NotModifiedError();
      return created(await presentMergeRequest(mr, subject, user));
    },
  });

/** Internal: a time-tracking route; GitLab answers 201 only for `add_spent_time`. */
const timeRoute = (params: typeof byMergeRequest | typeof withDuration, action: (duration: string) => TimeAction, respond: (body: unknown) => HttpResult = ok) =>
  route({
    params,
    handler: async ({ params: parsed, user }) => {
      const { subject, mr } = await findMergeRequestOf(parsed, user);
      authorize(user, 'admin_merge_request', subject);
      const duration = 'duration' in parsed ? parsed.duration : '';
      const written = await trackTime(mr, user, action(duration), {
        noteable: mergeRequestNoteable,
        reread: () => findMergeRequestOrNotFound(subject, user, mr.iid),
        hook: async (previous: MergeRequest, next: MergeRequest) =>
          (await prepareHookEvent({ projectId: next.projectId, actorId: user.id, kind: 'merge_request', action: 'update', mergeRequest: next, previous, lastCommit: null })).put,
      });
      return respond(presentTimeStats(written));
    },
  });

export const mergeRequestActionRoutes = {
  'POST /projects/:id/merge_requests/:merge_request_iid/subscribe': subscriptionRoute(subscribe),

  'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe': subscriptionRoute(unsubscribe),

  'POST /projects/:id/merge_requests/:merge_request_iid/todo': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      const todo = await markTodo(noteable, user);
      if (!todo) throw new NotModifiedError();
      const [body] = await presentTodos([{ todo, subject, target: mr }], user, { single: true });
      return created(body);
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/time_estimate': timeRoute(withDuration, (duration) => ({ kind: 'estimate', duration })),
  'POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate': timeRoute(byMergeRequest, () => ({ kind: 'reset_estimate' })),
  'POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time': timeRoute(withDuration, (duration) => ({ kind: 'spend', duration }), created),
  'POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time': timeRoute(byMergeRequest, () => ({ kind: 'reset_spent' })),

  'GET /projects/:id/merge_requests/:merge_request_iid/time_stats': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      return ok(presentTimeStats((await findMergeRequestOf(params, user)).mr));
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
