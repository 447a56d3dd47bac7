/** Internal: the pieces every scope's query shares. */
import type { ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { ParamError } from '../../platform/http/errors';
import { paginate, paginateArray, type ListSource } from '../../platform/http/pagination';
import { projectList } from '../../projects';
import type { User } from '../../users';
import type { SearchInput, SearchPage } from '../search';

/** A page of nothing, with its headers (a scope the caller may not read at this level: GitLab's empty result). */
export const emptyPage = (input: SearchInput): SearchPage => ({ items: [], headers: paginateArray(input.paging, input.link, []).headers });

/** A page of a list (a stream, a collection, or an array already in order). */
export async function pageOf<T>(input: SearchInput, list: ListSource<T> | T[]) {
  return Array.isArray(list) ? paginateArray(input.paging, input.link, list) : paginate(input.paging, input.link, list);
}

/** Whether a namespace is `group` or one of its subgroups. */
export const inGroupTree = (group: Namespace, namespace: Namespace): boolean => namespace.id === group.id || namespace.ancestorIds.includes(group.id);

/**
 * The projects the caller is a member of (the projects' membership list, as `GET
 * /merge_requests?scope=all` reads them): at most `GROUP_ISSUES_PROJECT_LIMIT`, 400 beyond.
 */
export async function memberProjects(user: User, what: string): Promise<ProjectSubject[]> {
  const limit = config().groupIssuesProjectLimit;
  const list = await projectList(user, { membership: true, order_by: 'id' }, {});
  const members: ProjectSubject[] = [];
  if (Array.isArray(list)) members.push(...list);
  else {
    for await (const entry of list.read(undefined, 100)) {
      if (entry.value) members.push(entry.value);
      if (members.length > limit) break;
    }
  }
  if (members.length > limit) throw new ParamError(`you are a member of more than ${limit} projects; search the ${what} of a project or group instead`);
  return members.filter((subject) => !subject.namespace.deleting);
}
