/**
 * Actions on a project issue (GitLab's `subscribable`, `todo` and `time_tracking_endpoints`).
 * Every call must be authenticated. Subscribing and todos need read access to the issue (404
 * otherwise, confidential rules included); changing time tracking needs `admin_issue` (reporter
 * and above), reading it only read access.
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { p, required } from '../../platform/http/params';
import { created, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { markIssueTodo, subscribeToIssue, trackIssueTime, unsubscribeFromIssue, type TimeAction } from '../commands/issue-actions';
import { presentIssue } from '../presenters/issues';
import { presentTimeStats } from '../presenters/time-stats';
import { presentTodo } from '../presenters/todos';
import { findIssueOrNotFound } from '../queries/issues';
import type { TrackedIssue } from '../store/issue-time';
import { issuePathParams } from './issues.params';

const byIssue = z.object(issuePathParams);
const withDuration = z.object({ ...issuePathParams, duration: required(p.string()) });

/** Internal: a time-tracking route; GitLab answers 201 only for `add_spent_time`. */
const timeRoute = (
  params: typeof byIssue | typeof withDuration,
  action: (duration: string) => TimeAction,
  respond: (body: unknown) => HttpResult = ok,
) =>
  route({
    params,
    handler: async ({ params: parsed, user }) => {
      const subject = await findProjectOrNotFound(parsed.id, user);
      const issue = await findIssueOrNotFound(subject, user, parsed.issue_iid);
      authorize(user, 'admin_issue', subject);
      const duration = 'duration' in parsed ? parsed.duration : '';
      return respond(presentTimeStats(await trackIssueTime(subject, user, issue, action(duration))));
    },
  });

/** Internal: a subscription route; GitLab answers 201 with the issue (304 when nothing changes). */
const subscriptionRoute = (change: typeof subscribeToIssue) =>
  route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return created(await presentIssue(await change(issue, user), subject, user));
    },
  });

export const issueActionRoutes = {
  'POST /projects/:id/issues/:issue_iid/subscribe': subscriptionRoute(subscribeToIssue),

  'POST /projects/:id/issues/:issue_iid/unsubscribe': subscriptionRoute(unsubscribeFromIssue),

  'POST /projects/:id/issues/:issue_iid/todo': route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return created(await presentTodo(await markIssueTodo(issue, user), issue, subject, user));
    },
  }),

  'POST /projects/:id/issues/:issue_iid/time_estimate': timeRoute(withDuration, (duration) => ({ kind: 'estimate', duration })),

  'POST /projects/:id/issues/:issue_iid/reset_time_estimate': timeRoute(byIssue, () => ({ kind: 'reset_estimate' })),

  'POST /projects/:id/issues/:issue_iid/add_spent_time': timeRoute(
    withDuration,
    (duration) => ({ kind: 'spend', duration }),
    created,
  ),

  'POST /projects/:id/issues/:issue_iid/reset_spent_time': timeRoute(byIssue, () => ({ kind: 'reset_spent' })),

  'GET /projects/:id/issues/:issue_iid/time_stats': route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue: TrackedIssue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(presentTimeStats(issue));
    },
  }),
} satisfies RoutesOf<typeof catalog.issue_actions>;
