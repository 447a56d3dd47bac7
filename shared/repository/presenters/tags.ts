/**
 * GitLab's `Tag` entity. `release` is null (releases are not implemented); `protected` whether a
 * protected tag matches the name (`ProtectedTag.protected?`); `created_at` is an annotated tag's
 * date, null for a lightweight tag.
 */
import type { TagRules } from '../queries/protection';
import type { TagView } from '../queries/tags';
import { gitDate, presentCommit } from './commits';

export function presentTag(tag: TagView, projectWebUrl: string, rules: TagRules) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: tag.commit ? presentCommit(tag.commit, { projectWebUrl }) : null,
    release: null,
    protected: rules.isProtected(tag.name),
    created_at: tag.tagger ? gitDate(tag.tagger) : null,
  };
}
