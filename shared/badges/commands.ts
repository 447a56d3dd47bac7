/**
 * Writes of badges. The caller is authorized by the route (`admin_project` or `admin_group`) and
 * the fields are validated by the parameters (`routes/badges.params.ts`).
 */
import { NotFoundError, RecordNotFoundError } from '../platform/http/errors';
import { deleteBadge, insertBadge, updateBadge, type Badge, type BadgeFields } from './store/badges';
import type { BadgeSource } from './store/keys';

/** Adds a badge; 404 when its project or group was deleted meanwhile. */
export async function addBadge(source: BadgeSource, fields: BadgeFields): Promise<Badge> {
  const badge = await insertBadge(source, fields);
  if (badge === 'source_gone') throw new NotFoundError(source.kind === 'project' ? 'Project' : 'Group');
  return badge;
}

/** Edits the given fields of a badge; 404 when it was deleted meanwhile. */
export async function editBadge(badge: Badge, changes: Partial<BadgeFields>): Promise<Badge> {
  const edited = await updateBadge(badge, changes);
  if (!edited) throw new RecordNotFoundError();
  return edited;
}

/** Deletes a badge; 404 when it was deleted meanwhile. */
export async function removeBadge(badge: Badge): Promise<void> {
  if (!(await deleteBadge(badge))) throw new RecordNotFoundError();
}
