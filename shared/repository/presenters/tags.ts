/**
 * GitLab's `Tag` entity. `release` is the tag's release (`{ tag_name, description }`, null
 * without one), only for callers who may read releases (the key is left out otherwise, as GitLab's
 * `if: can_read_release?`); the caller reads the releases of a whole page at once
 * (`tag-releases.ts`). `protected` whether a
 * protected tag matches the name (`ProtectedTag.protected?`); `created_at` is an annotated tag's
 * date, null for a lightweight tag.
 */
import type { TagRules } from '../queries/protection';
import type { TagView } from '../queries/tags';
import type { TagRelease } from '../tag-releases';
import { gitDate, presentCommit } from './commits';

/** `releases`: the page's releases by tag name, or `undefined` when the caller may not read releases. */
export function presentTag(tag: TagView, projectWebUrl: string, rules: TagRules, releases: ReadonlyMap<string, TagRelease> | undefined) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: tag.commit ? presentCommit(tag.commit, { projectWebUrl }) : null,
    ...(releases ? { release: releases.get(tag.name) ?? null } : {}),
    protected: rules.isProtected(tag.name),
    created_at: tag.tagger ? gitDate(tag.tagger) : null,
  };
}
