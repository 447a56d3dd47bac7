/** GitLab's `Projects::Topic` entity (no avatars here: `avatar_url` is null). */
import type { Topic } from '../store/topics';

export function presentTopic(topic: Topic) {
  return { id: topic.id, name: topic.name, title: topic.title, description: topic.description, total_projects_count: topic.totalProjectsCount, avatar_url: null };
}
