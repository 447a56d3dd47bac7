/**
 * Label reads: a label by id or name (GitLab's `find_label`) and a project's labels as listed.
 */
import { NotFoundError } from '../../platform/http/errors';
import { findLabelByName, getLabel, listLabels, type Label } from '../store/labels';

/**
 * A label of the project by id or by name (case-insensitive), like GitLab's `find_label`: an
 * all-digits value is tried as an id first, then as a name. 404 `Label Not Found` otherwise.
 */
export async function findLabelOrNotFound(projectId: number, idOrName: string | number): Promise<Label> {
  const value = String(idOrName);
  const byId = /^\d+$/.test(value) ? await getLabel(projectId, Number(value)) : undefined;
  const label = byId ?? (await findLabelByName(projectId, value));
  if (!label) throw new NotFoundError('Label');
  return label;
}

/**
 * A project's labels ordered by name (case-insensitively, then by id), optionally only those
 * whose name or description contains `search` (case-insensitive, as GitLab's ILIKE). A project's
 * labels are one bounded partition range, read whole and paged in memory.
 */
export async function listProjectLabels(projectId: number, search?: string): Promise<Label[]> {
  const term = search?.toLowerCase();
  const labels = (await listLabels(projectId)).filter(
    (label) => !term || label.name.toLowerCase().includes(term) || (label.description ?? '').toLowerCase().includes(term),
  );
  return labels.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
}

const compareNames = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};
