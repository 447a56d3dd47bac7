/**
 * Label reads: a label by id or name (GitLab's `find_label`) and a project's labels as listed.
 */
import { NotFoundError } from '../../platform/http/errors';
import { matchesSearch, parseSearch } from '../../platform/search';
import { findLabelByName, getLabel, isAlias, labelsByTerm, listLabels, type Label } from '../store/labels';

/**
 * A label of the project by id or by name (case-insensitive), like GitLab's `find_label`: an
 * all-digits value is tried as an id first, then as a name. 404 `Label Not Found` otherwise.
 */
export async function findLabelOrNotFound(projectId: number, idOrName: string | number): Promise<Label> {
  const value = String(idOrName);
  const byId = /^\d+$/.test(value) ? await getLabel(projectId, Number(value)) : undefined;
  const label = byId ?? (await findLabelByName(projectId, value));
  // A project's alias of a group label is the group's label, not one of the project's own.
  if (!label || isAlias(label)) throw new NotFoundError('Label');
  return label;
}

/**
 * A project's own labels (not its aliases of group labels) ordered by name (case-insensitively, then by id), optionally only those
 * `search` finds (GitLab's `fuzzy_search` over the name and the description): read from the
 * search term's entries, so a search costs what it matches. Without a search (or a term), the
 * project's labels are one bounded partition range, read whole and paged in memory.
 */
export async function listProjectLabels(projectId: number, search?: string): Promise<Label[]> {
  const query = search ? parseSearch(search) : undefined;
  const candidates = query?.term ? await labelsByTerm(projectId, query.term) : await listLabels(projectId);
  const own = candidates.filter((label) => !isAlias(label));
  const labels = query ? own.filter((label) => matchesSearch(query, label.name, label.description)) : own;
  return labels.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
}

/** Label name order: case-insensitively, then case-sensitively. */
export const compareNames = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};
