import type { ContributionEvent } from '../store/events';
import { type User, presentUserPublic } from '../../users';

/** The Event entity of the project and user feeds. */
export function presentEvent(event: ContributionEvent, author: User) {
  return {
    id: event.id,
    title: event.title,
    project_id: event.projectId,
    action_name: event.actionName,
    target_id: event.targetId,
    target_type: event.targetType,
    author_id: event.authorId,
    target_title: event.targetTitle,
    data: event.data,
    created_at: event.createdAt,
    ...(event.note ? { note: event.note } : {}),
    author: presentUserPublic(author),
    author_username: author.username,
  };
}
