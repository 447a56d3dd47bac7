/**
 * GitLab's `BasicBadgeDetails` (a preview: the URLs as given and as rendered) and `Badge` (with
 * its id and `kind`) entities. The rendered URLs are built from placeholder values read once for
 * a whole page (`placeholderValues`).
 */
import { renderBadgeUrl, type PlaceholderValues } from '../placeholders';
import type { Badge, BadgeFields } from '../store/badges';

export function presentBadgeDetails(badge: BadgeFields, values: PlaceholderValues | undefined) {
  return {
    name: badge.name,
    link_url: badge.linkUrl,
    image_url: badge.imageUrl,
    rendered_link_url: renderBadgeUrl(badge.linkUrl, values),
    rendered_image_url: renderBadgeUrl(badge.imageUrl, values),
  };
}

export function presentBadge(badge: Badge, values: PlaceholderValues | undefined) {
  return { ...presentBadgeDetails(badge, values), id: badge.id, kind: badge.kind };
}
