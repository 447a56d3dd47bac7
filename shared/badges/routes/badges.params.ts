/** Parameters of the badge routes, and GitLab's model validations of a badge's fields. */
import * as z from 'zod';
import { ValidationError } from '../../platform/http/errors';
import { idParam, p, required, requiredKey } from '../../platform/http/params';
import { paginationParams } from '../../platform/http/pagination';
import { badgeUrlError } from '../placeholders';
import type { BadgeFields } from '../store/badges';

/** Longest URL kept (GitLab sets none; an item must stay well within DynamoDB's 400 KB). */
const URL_LIMIT = { max: 8192 };
/** GitLab's `badges.name` column. */
const NAME_LIMIT = { max: 255 };

const badgeIdParam = { badge_id: required(p.int()) };

export const listParams = z.object({ ...idParam, ...paginationParams, name: p.string() });
export const badgeParams = z.object({ ...idParam, ...badgeIdParam });
/** `requires :link_url, :image_url` alone: a blank URL is the model's `must be a valid URL`, not `is missing`. */
export const renderParams = z.object({ ...idParam, link_url: requiredKey(p.string(URL_LIMIT)), image_url: requiredKey(p.string(URL_LIMIT)) });
export const createParams = z.object({
  ...idParam,
  link_url: requiredKey(p.string(URL_LIMIT)),
  image_url: requiredKey(p.string(URL_LIMIT)),
  name: p.string(NAME_LIMIT),
});
export const updateParams = z.object({ ...idParam, ...badgeIdParam, link_url: p.string(URL_LIMIT), image_url: p.string(URL_LIMIT), name: p.string(NAME_LIMIT) });

/**
 * The fields a request sets, URLs stripped (as GitLab stores them) and validated:
 * `{"message":{"link_url":["must be a valid URL"]}}` and the like, both URLs at once.
 */
export function badgeChanges(params: { link_url?: string; image_url?: string; name?: string }): Partial<BadgeFields> {
  const changes: Partial<BadgeFields> = {};
  const errors: Record<string, string[]> = {};
  for (const [param, field] of [['link_url', 'linkUrl'], ['image_url', 'imageUrl']] as const) {
    const value = params[param];
    if (value === undefined) continue;
    const error = badgeUrlError(value);
    if (error) errors[param] = [error];
    changes[field] = value.trim();
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (params.name !== undefined) changes.name = params.name;
  return changes;
}

/** A new badge's fields (both URLs are required by the parameters). */
export function newBadgeFields(params: { link_url: string; image_url: string; name?: string }): BadgeFields {
  const changes = badgeChanges(params);
  return { name: changes.name ?? null, linkUrl: changes.linkUrl!, imageUrl: changes.imageUrl! };
}
