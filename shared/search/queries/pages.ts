/** Internal: the pieces every scope's query shares. */
import type { ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { paginate, paginateArray, type ListSource } from '../../platform/http/pagination';
import { memberProjects as projectsOfMember } from '../../projects';
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

/** The projects the caller is a member of (the projects' `memberProjects`), those being deleted left out. */
export async function memberProjects(user: User, what: string): Promise<ProjectSubject[]> {
  return (await projectsOfMember(user, `search the ${what} of a project or group`)).filter((subject) => !subject.namespace.deleting);
}
