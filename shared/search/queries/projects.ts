/**
 * Scope `projects` (GitLab's `SearchResults#projects`, entity `BasicProjectDetails`): the projects
 * the caller may see whose name, path or description match, newest first, archived ones left out
 * (GitLab's search leaves them out unless asked). Read from the projects' search entries (#31,
 * the list of `GET /projects?search=`); a group's search keeps those of the group and its
 * subgroups (the entries of the term are read, the others dropped: its cost follows the term's
 * matches across the instance, not the group's size).
 */
import { presentProjects, projectList } from '../../projects';
import type { StreamSource } from '../../platform/http/pagination';
import type { ProjectSubject } from '../../auth';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { inGroupTree, pageOf } from './pages';

export async function searchProjects(level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  const list = await projectList(input.user, { search: input.search, archived: false, order_by: 'created_at', sort: input.ascending ? 'asc' : 'desc' }, input.paging);
  const scoped: typeof list =
    level.kind !== 'group' || Array.isArray(list)
      ? list
      : ({
          read: async function* (after, hint, need) {
            for await (const entry of list.read(after, hint, need)) {
              yield entry.value && !inGroupTree(level.group, entry.value.namespace) ? { ...entry, value: undefined } : entry;
            }
          },
        } satisfies StreamSource<ProjectSubject>);
  const page = await pageOf(input, scoped);
  return { items: await presentProjects(page.items, input.user), headers: page.headers };
}
