/**
 * Actions on a project issue (GitLab's `subscribable`, `todo` and `time_tracking_endpoints`).
 * Every call must be authenticated. Subscribing and todos need read access to the issue (404
 * otherwise, confidential rules included); changing time tracking needs `admin_issue` (reporter
 * and above), reading it only read access.
 */
import { z } from 'zod';
import type { ProjectSubject } from '../../auth';
import type { TrackedIssue } from '../store/issue-time';
import type { User } from '../../users';
import { issueTimeStats, markIssueTodo, subscribeToIssue, trackIssueTime, unsubscribeFromIssue, type TimeAction } from '../issue-actions';
import { findProjectOrNotFound } from '../../projects';
import { presentTimeStats } from '../time-tracking';
import { p, required } from '../../platform/http/params';
import { created, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentIssues } from '../presenters/issues';
import { presentTodo } from '../presenters/todos';
import type { catalog } from '../catalog';

/** `:id` (project id or URL-encoded full path) and `:issue_iid`. */
const issueParams = { id: required(p.string()), issue_iid: required(p.int()) };
const byIssue = z.object(issueParams);
const withDuration = z.object({ ...issueParams, duration: required(p.string()) });

/** Internal: the Issue entity with `subscribed` for `viewer`. */
async function presentOne(issue: TrackedIssue, subject: ProjectSubject, viewer: User) {
  const [body] = await presentIssues([issue], () => `${subject.namespace.fullPath}/${subject.project.path}`, { single: true, viewer });
  return body;
}

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
      const duration = 'duration' in parsed ? parsed.duration : '';
      return respond(presentTimeStats(await trackIssueTime(subject, user, parsed.issue_iid, action(duration))));
    },
  });

export const issueActionRoutes = {
  'POST /projects/:id/issues/:issue_iid/subscribe': route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return created(await presentOne(await subscribeToIssue(subject, user, params.issue_iid), subject, user));
    },
  }),

  'POST /projects/:id/issues/:issue_iid/unsubscribe': route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return created(await presentOne(await unsubscribeFromIssue(subject, user, params.issue_iid), subject, user));
    },
  }),

  'POST /projects/:id/issues/:issue_iid/todo': route({
    params: byIssue,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const { todo, issue } = await markIssueTodo(subject, user, params.issue_iid);
      return created(await presentTodo(todo, issue, subject, user));
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
      return ok(presentTimeStats(await issueTimeStats(subject, user, params.issue_iid)));
    },
  }),
} satisfies RoutesOf<typeof catalog.issue_actions>;
