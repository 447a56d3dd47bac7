/**
 * Reads of topics (anyone may read them, as GitLab's public endpoints): the list by id, searched by
 * name (the name's search entries: a page costs what the term matches), `without_projects` the
 * topics no project counts in; one topic.
 */
import { entryIds, searchStream } from '../../namespaces';
import { RecordNotFoundError } from '../../platform/http/errors';
import type { ListSource } from '../../platform/http/pagination';
import { matchesSearch, parseSearch } from '../../platform/search';
import { topicCollections } from '../store/keys';
import { getTopic, getTopics, topicFromItem, type Topic } from '../store/topics';

export function topicList(filters: { search?: string; without_projects?: boolean }): ListSource<Topic> {
  const query = filters.search === undefined ? undefined : parseSearch(filters.search);
  const matches = (topic: Topic) => (!query || matchesSearch(query, topic.name)) && (!filters.without_projects || topic.totalProjectsCount === 0);
  const term = query?.term;
  if (term !== undefined) {
    return searchStream({
      ascending: true,
      sources: (range) => [entryIds(topicCollections.searchEntries(term), range)],
      load: async (ids) => new Map([...(await getTopics(ids)).values()].filter(matches).map((topic) => [topic.id, topic])),
    });
  }
  return {
    collection: topicCollections.topics(),
    ascending: true,
    select: (item) => {
      const topic = topicFromItem(item);
      return matches(topic) ? topic : undefined;
    },
  };
}

/** A topic, or GitLab's `404 Not found` (`Projects::Topic.find`). */
export async function findTopicOrNotFound(id: number): Promise<Topic> {
  const topic = await getTopic(id);
  if (!topic) throw new RecordNotFoundError();
  return topic;
}
