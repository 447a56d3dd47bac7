/**
 * Project topics (GitLab's `lib/api/topics.rb`), top-level routes served by the meta function under
 * the API root's `shared` subtree: anyone lists and reads topics; admins create, edit and delete
 * them (403 otherwise). Topics are also created by the projects that name them
 * (`POST`/`PUT /projects` with `topics` or `tag_list`), and `total_projects_count` is kept by those
 * project writes, in their transactions.
 */
import { authorize } from '../../auth';
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createTopic, editTopic, removeTopic } from '../commands/topics';
import { presentTopic } from '../presenters/topics';
import { findTopicOrNotFound, topicList } from '../queries/topics';
import { createParams, listParams, topicChanges, topicParams, updateParams } from './topics.params';

export const topicRoutes = {
  'GET /topics': route({
    params: listParams,
    anonymous: true,
    handler: async ({ params, link }) => {
      const page = await paginate(params, link, topicList(params));
      return ok(page.items.map(presentTopic), page.headers);
    },
  }),
  'GET /topics/:id': route({
    params: topicParams,
    anonymous: true,
    handler: async ({ params }) => ok(presentTopic(await findTopicOrNotFound(params.id))),
  }),
  'POST /topics': route({
    params: createParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_topics');
      return created(presentTopic(await createTopic({ name: params.name.trim(), title: params.title, description: params.description || null })));
    },
  }),
  'PUT /topics/:id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_topics');
      const topic = await findTopicOrNotFound(params.id);
      return ok(presentTopic(await editTopic(topic, topicChanges(params))));
    },
  }),
  'DELETE /topics/:id': route({
    params: topicParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_topics');
      await removeTopic(await findTopicOrNotFound(params.id));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.meta>;
