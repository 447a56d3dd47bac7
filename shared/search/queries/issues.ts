/**
 * Scope `issues` (GitLab's `SearchResults#issues` through `IssuesFinder`, entity `IssueBasic`):
 * the issues the caller may read whose title or description match, newest first (`sort=asc`:
 * oldest), of a `state` and a `confidential` value when asked. The lists of the Issues API serve
 * it, with their visibility rules (confidential issues, disabled issues):
 * - a project: `GET /projects/:id/issues?search=` (#60, the project's entries of the term);
 * - a group: `GET /groups/:id/issues?search=` (its and its subgroups' projects, at most
 *   `GROUP_ISSUES_PROJECT_LIMIT`, each read by its entries of the term);
 * - the instance: the projects the caller is a member of, read the same way (GitLab reads every
 *   project the caller may see; there is no instance-wide issue index here).
 * `state=merged` finds no issue.
 */
import { can, type ProjectSubject } from '../../auth';
import { groupIssueStream, memberIssueStream, presentIssues, projectIssueStream, type IssueFilters, type IssueOrder } from '../../issues';
import { projectFullPath } from '../../projects';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { emptyPage, pageOf } from './pages';

const pathsIn = (subjects: Map<number, ProjectSubject>) => (projectId: number) => {
  const { namespace, project } = subjects.get(projectId)!;
  return projectFullPath(namespace, project);
};

export async function searchIssues(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  if (input.state === 'merged') return emptyPage(input);
  const filters: IssueFilters = { search: input.search, state: input.state, confidential: input.confidential };
  const order: IssueOrder = { orderBy: 'created_at', ascending: input.ascending };
  if (level.kind === 'project') {
    const { subject } = level;
    if (!can(input.user, 'read_issue', subject)) return emptyPage(input);
    const page = await pageOf(input, await projectIssueStream(subject, input.user, filters, order));
    return { items: await presentIssues(page.items, () => projectFullPath(subject.namespace, subject.project)), headers: page.headers };
  }
  const { stream, subjects } = level.kind === 'group' ? await groupIssueStream(level.group, input.user, filters, order) : await memberIssueStream(input.user, filters, order);
  const page = await pageOf(input, stream);
  const from = level.kind === 'group' ? { from: { group: level.group.fullPath } } : {};
  return { items: await presentIssues(page.items, pathsIn(subjects), from), headers: page.headers };
}
