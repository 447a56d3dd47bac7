/**
 * Scope `milestones` (GitLab's `SearchResults#milestones`, entity `Milestone`): milestones whose
 * title or description hold the query, newest first (`sort=asc`: oldest), read with the
 * Milestones API's lists (one range read per project or group, filtered in memory):
 * - a project: its own milestones (`GET /projects/:id/milestones?search=`);
 * - a group: its own (`GET /groups/:id/milestones?search=`) and those of the projects of its tree
 *   the caller may read (at most `GROUP_ISSUES_PROJECT_LIMIT` projects, 400 beyond, as its issues);
 * - the instance: those of the projects the caller is a member of (at most as many; GitLab reads
 *   every project and group the caller may see).
 */
import type { ProjectSubject } from '../../auth';
import { listMilestonesOfGroup, listProjectMilestones, presentGroupMilestone, presentMilestone, type GroupMilestone, type Milestone } from '../../issues';
import { config } from '../../platform/config';
import { ParamError } from '../../platform/http/errors';
import { groupProjectIds, projectFullPath, readableProjects } from '../../projects';
import type { User } from '../../users';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { memberProjects, pageOf } from './pages';

type Found = { milestone: Milestone; subject: ProjectSubject } | { milestone: GroupMilestone; groupPath: string };

/** Internal: the projects of a level whose milestones are searched (a project's own, a group's tree, the caller's memberships). */
async function projectsOf(level: SearchLevel, user: User): Promise<ProjectSubject[]> {
  const limit = config().groupIssuesProjectLimit;
  if (level.kind === 'project') return [level.subject];
  if (level.kind === 'group') {
    const ids = await groupProjectIds(level.group, limit);
    if (ids === 'too_many') throw new ParamError(`the group has more than ${limit} projects; search the milestones of its projects or subgroups instead`);
    return [...(await readableProjects(user, ids)).values()].filter((subject) => !subject.namespace.deleting);
  }
  return memberProjects(user, 'milestones');
}

export async function searchMilestones(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  const filters = { search: input.search };
  const projects = await projectsOf(level, input.user);
  const [own, ...perProject] = await Promise.all([
    level.kind === 'group' ? listMilestonesOfGroup(level.group, filters) : Promise.resolve([]),
    ...projects.map((subject) => listProjectMilestones(subject.project.id, filters)),
  ]);
  const found: Found[] = [
    ...own.map((milestone) => ({ milestone, groupPath: level.kind === 'group' ? level.group.fullPath : '' })),
    ...perProject.flatMap((milestones, i) => milestones.map((milestone) => ({ milestone, subject: projects[i] }))),
  ];
  const sign = input.ascending ? 1 : -1;
  found.sort((a, b) => sign * (a.milestone.createdAt.localeCompare(b.milestone.createdAt) || a.milestone.id - b.milestone.id));
  const page = await pageOf(input, found);
  return {
    items: page.items.map((entry) =>
      'subject' in entry ? presentMilestone(entry.milestone, projectFullPath(entry.subject.namespace, entry.subject.project)) : presentGroupMilestone(entry.milestone, entry.groupPath),
    ),
    headers: page.headers,
  };
}
