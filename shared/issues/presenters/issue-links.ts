/**
 * GitLab's `RelatedIssue` entity (an issue as listed by `GET .../links`: the `Issue` entity with
 * its link's `issue_link_id`, `link_type` seen from the listed-for issue, `link_created_at`,
 * `link_updated_at`) and `IssueLink` entity (`source_issue`, `target_issue`, `link_type`).
 */
import { projectFullPath } from '../../projects';
import type { SubjectIssue } from '../commands/issue-links';
import type { LinkedIssue } from '../queries/issue-links';
import type { IssueLink } from '../store/issue-links';
import { presentIssues } from './issues';

/** Internal: the `path_with_namespace` of each project among the given issues' subjects. */
const pathsOf = (entries: Array<Pick<SubjectIssue, 'subject'>>) => {
  const paths = new Map(entries.map(({ subject }) => [subject.project.id, projectFullPath(subject.namespace, subject.project)]));
  return (projectId: number) => paths.get(projectId)!;
};

/** The linked issues of one issue, as `GET /projects/:id/issues/:issue_iid/links` lists them. */
export async function presentRelatedIssues(linked: LinkedIssue[]) {
  const bodies = await presentIssues(linked.map((entry) => entry.issue), pathsOf(linked));
  return bodies.map((body, i) => {
    const { side } = linked[i];
    return {
      ...body,
      issue_link_id: side.link.id,
      link_type: side.linkType,
      link_created_at: side.link.createdAt,
      link_updated_at: side.link.updatedAt,
    };
  });
}

/** One link with both its issues (create, show, delete). */
export async function presentIssueLink(link: IssueLink, source: SubjectIssue, target: SubjectIssue) {
  const [sourceBody, targetBody] = await presentIssues([source.issue, target.issue], pathsOf([source, target]));
  return { source_issue: sourceBody, target_issue: targetBody, link_type: link.linkType };
}
