/**
 * Scope `merge_requests` (GitLab's `SearchResults#merge_requests` through `MergeRequestsFinder`,
 * entity `MergeRequestBasic`): the merge requests the caller may read whose title or description
 * match, newest first (`sort=asc`: oldest), of a `state` when asked. The lists of the Merge
 * Requests API serve it, with their rules: a project's (`GET /projects/:id/merge_requests?search=`;
 * none when the caller may not read its merge requests), a group's (its and its subgroups'
 * projects, at most `GROUP_ISSUES_PROJECT_LIMIT`), and for the instance `GET
 * /merge_requests?scope=all`'s (the projects the caller is a member of). Those lists have no
 * search index: each project's state partitions are read and filtered.
 */
import { can, type ProjectSubject } from '../../auth';
import { groupMergeRequestStream, memberMergeRequestStream, mergeRequestProjectSubjects, presentMergeRequests, projectMergeRequestStream, type MergeRequestFilters, type MergeRequestOrder } from '../../merge-requests';
import { projectFullPath } from '../../projects';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { emptyPage, pageOf } from './pages';

const pathsIn = (subjects: Map<number, ProjectSubject>) => (projectId: number) => {
  const { namespace, project } = subjects.get(projectId)!;
  return projectFullPath(namespace, project);
};

export async function searchMergeRequests(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  const filters: MergeRequestFilters = { search: input.search, state: input.state };
  const order: MergeRequestOrder = { orderBy: 'created_at', ascending: input.ascending };
  if (level.kind === 'project') {
    const { subject } = level;
    if (!can(input.user, 'read_merge_request', subject)) return emptyPage(input);
    const page = await pageOf(input, await projectMergeRequestStream(subject, filters, order));
    return { items: await presentMergeRequests(page.items, () => projectFullPath(subject.namespace, subject.project)), headers: page.headers };
  }
  if (level.kind === 'group') {
    const { stream, subjects } = await groupMergeRequestStream(level.group, input.user, filters, order);
    const page = await pageOf(input, stream);
    return { items: await presentMergeRequests(page.items, pathsIn(subjects), { from: { group: level.group.fullPath } }), headers: page.headers };
  }
  const page = await pageOf(input, await memberMergeRequestStream(input.user, filters, order));
  const subjects = await mergeRequestProjectSubjects(input.user, [...new Set(page.items.map((mr) => mr.projectId))]);
  return { items: await presentMergeRequests(page.items, pathsIn(subjects)), headers: page.headers };
}
