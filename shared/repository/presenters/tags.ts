/**
 * GitLab's `Tag` entity. `release` is null (releases are not implemented) and `protected` false
 * (protected tags are not implemented); `created_at` is an annotated tag's date, null for a
 * lightweight tag.
 */
import type { TagView } from '../queries/tags';
import { gitDate, presentCommit } from './commits';

export function presentTag(tag: TagView, projectWebUrl: string) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: tag.commit ? presentCommit(tag.commit, { projectWebUrl }) : null,
    release: null,
    protected: false,
    created_at: tag.tagger ? gitDate(tag.tagger) : null,
  };
}
