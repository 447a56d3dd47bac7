/**
 * Topics: the admin's writes (GitLab's `lib/api/topics.rb`) and the assignment of a project's
 * topics by name (GitLab's `Project#topic_list=`): names stripped, blanks dropped, duplicates
 * (case-insensitively) dropped; each found by name case-insensitively, or created (title = name).
 * The project write then counts the project in its topics in its own transaction
 * (`store/projects.ts`), and resolves again when a topic is deleted meanwhile.
 */
import { ConflictError, RecordNotFoundError, ValidationError } from '../../platform/http/errors';
import { deleteTopic, getTopic, getTopics, insertTopic, topicIdByName, updateTopic, type Topic, type TopicFields } from '../store/topics';

const TAKEN = { name: ['has already been taken'] };

/** GitLab's `Projects::Topic` validations of the fields given. */
function validateTopic(fields: Partial<TopicFields>): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (fields.name !== undefined && fields.name.trim() === '') add('name', "can't be blank");
  if (fields.title !== undefined && fields.title.trim() === '') add('title', "can't be blank");
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Creates a topic (admins); a taken name (in any case) is GitLab's 400 `has already been taken`. */
export async function createTopic(fields: TopicFields): Promise<Topic> {
  validateTopic(fields);
  const topic = await insertTopic(fields);
  if (topic === 'name_taken') throw new ValidationError(TAKEN);
  return topic;
}

/** Edits a topic's given fields (admins); 409 when another edit won meanwhile. */
export async function editTopic(topic: Topic, changes: Partial<TopicFields>): Promise<Topic> {
  validateTopic(changes);
  const edited = await updateTopic(topic, changes);
  if (edited === 'name_taken') throw new ValidationError(TAKEN);
  if (edited === 'changed') throw new ConflictError('The topic was modified by another request; try again');
  return edited;
}

/** Deletes a topic (admins); 404 when it was deleted meanwhile. */
export async function removeTopic(topic: Topic): Promise<void> {
  if (!(await deleteTopic(topic))) throw new RecordNotFoundError();
}

/** GitLab's normalisation of a topic list: stripped, no blanks, no duplicates whatever their case. */
export function topicNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => name.trim()).filter((name) => name !== '' && !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()));
}

/** Internal: the topic named `name` (case-insensitively), created when there is none. */
async function topicNamed(name: string): Promise<Topic> {
  for (let attempt = 1; ; attempt++) {
    const id = await topicIdByName(name);
    const found = id === undefined ? undefined : await getTopic(id);
    if (found) return found;
    if (id === undefined) {
      const created = await insertTopic({ name, title: name, description: null });
      if (created !== 'name_taken') return created;
    }
    // Created or deleted by another request meanwhile: look again.
    if (attempt >= 5) throw new ConflictError('The topics were modified by another request; try again');
  }
}

/**
 * The topics of a project's topic list (`tag_list` / `topics`), in its order, each the existing
 * topic of the name or a new one; two names of one topic count once.
 */
export async function resolveTopics(names: readonly string[]): Promise<Topic[]> {
  const topics = await Promise.all(topicNames(names).map(topicNamed));
  const ids = new Set<number>();
  return topics.filter((topic) => !ids.has(topic.id) && ids.add(topic.id));
}

/** Of a project's topic ids, those whose topic no longer exists (a deleted topic: nothing to count down). */
export async function deletedTopicIds(ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const existing = await getTopics(ids);
  return ids.filter((id) => !existing.has(id));
}
