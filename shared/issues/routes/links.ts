/**
 * Issue links (GitLab's `API::IssueLinks`): list an issue's linked issues, link it to another
 * issue (of this project or another), read and remove one link. Every call is authenticated;
 * the issues are found as the caller may read them (404 otherwise); linking and unlinking need
 * the right to link on both issues (guest and above), checked by the commands.
 */
import { findProjectOrNotFound } from '../../projects';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createIssueLink, deleteIssueLink } from '../commands/issue-links';
import { presentIssueLink, presentRelatedIssues } from '../presenters/issue-links';
import { findLinkOrNotFound, linkedIssues } from '../queries/issue-links';
import { findIssueOrNotFound } from '../queries/issues';
import { createLinkParams, linkParams, listLinksParams } from './links.params';

export const linkRoutes = {
  'GET /projects/:id/issues/:issue_iid/links': route({
    params: listLinksParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(await presentRelatedIssues(await linkedIssues(user, issue)));
    },
  }),

  'POST /projects/:id/issues/:issue_iid/links': route({
    params: createLinkParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const targetSubject = await findProjectOrNotFound(params.target_project_id, user);
      const target = await findIssueOrNotFound(targetSubject, user, params.target_issue_iid);
      const source = { subject, issue };
      const targetIssue = { subject: targetSubject, issue: target };
      const link = await createIssueLink(user, source, targetIssue, params.link_type);
      return created(await presentIssueLink(link, source, targetIssue));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/links/:issue_link_id': route({
    params: linkParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const { link, source, target } = await findLinkOrNotFound(subject, user, issue, params.issue_link_id);
      return ok(await presentIssueLink(link, source, target));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id': route({
    params: linkParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const { link, source, target } = await findLinkOrNotFound(subject, user, issue, params.issue_link_id);
      return ok(await presentIssueLink(await deleteIssueLink(user, link, source, target), source, target));
    },
  }),
} satisfies RoutesOf<typeof catalog.issues>;
