/**
 * Group labels (GitLab's `lib/api/group_labels.rb`) and their subscriptions (`API::Subscriptions`).
 * Every route needs a token, as in GitLab. Reading needs read access to the group (404
 * otherwise); writing needs `admin_label` on the group: reporter or above (GitLab's `GroupPolicy`),
 * or an admin (403 otherwise). Reads reach the ancestors' labels (`include_ancestor_groups`, default
 * true); edits and deletes only the group's own.
 */
import { authorize, type GroupSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { paginateArray } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createGroupLabel, editGroupLabel, removeGroupLabel, setLabelSubscription } from '../commands/group-labels';
import { presentGroupLabel } from '../presenters/labels';
import { findGroupLabelOrNotFound, groupLabelCounts, isSubscribed, listLabelsOfGroup, subscribedAmong } from '../queries/group-labels';
import {
  groupLabelCollectionDeleteParams,
  groupLabelCollectionUpdateParams,
  groupLabelCreateParams,
  groupLabelListParams,
  groupLabelPathParams,
  groupLabelShowParams,
  groupLabelUpdateParams,
} from './group-labels.params';

/** The group whose labels the caller may manage: 404 when they cannot see it, 403 when they may not manage. */
async function findManagedGroup(idOrPath: string, user: User): Promise<GroupSubject> {
  const subject = await findGroupOrNotFound(idOrPath, user);
  authorize(user, 'admin_label', subject);
  return subject;
}

/** Internal: the edit both PUT forms share. */
async function update(idOrPath: string, labelIdOrName: string | number, changes: { new_name?: string; color?: string; description?: string }, user: User) {
  const { group } = await findManagedGroup(idOrPath, user);
  const label = await findGroupLabelOrNotFound(group, labelIdOrName);
  const edited = await editGroupLabel(label, { name: changes.new_name, color: changes.color, description: changes.description });
  return ok(presentGroupLabel(edited, { subscribed: await isSubscribed(edited, user.id) }));
}

/** Internal: the delete both DELETE forms share (204). */
async function remove(idOrPath: string, labelIdOrName: string | number, user: User) {
  const { group } = await findManagedGroup(idOrPath, user);
  await removeGroupLabel(await findGroupLabelOrNotFound(group, labelIdOrName));
  return noContent();
}

/** Internal: subscribe or unsubscribe (201 with the label; 304 when nothing changes). */
async function subscription(idOrPath: string, labelIdOrName: string, user: User, subscribed: boolean) {
  const { group } = await findGroupOrNotFound(idOrPath, user);
  const label = await findGroupLabelOrNotFound(group, labelIdOrName, true);
  await setLabelSubscription(label, user.id, subscribed);
  return created(presentGroupLabel(label, { subscribed }));
}

export const groupLabelRoutes = {
  'GET /groups/:id/labels': route({
    params: groupLabelListParams,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const labels = await listLabelsOfGroup(group, { includeAncestors: params.include_ancestor_groups ?? true, search: params.search });
      const page = paginateArray(params, link, labels);
      const [subscribed, counts] = await Promise.all([subscribedAmong(page.items, user.id), params.with_counts ? groupLabelCounts(page.items) : undefined]);
      const present = (label: (typeof page.items)[number]) =>
        presentGroupLabel(label, { withCounts: params.with_counts, subscribed: subscribed.has(label.id), counts: counts?.get(label.id) });
      return ok(page.items.map(present), page.headers);
    },
  }),

  'GET /groups/:id/labels/:label_id': route({
    params: groupLabelShowParams,
    handler: async ({ params, user }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const label = await findGroupLabelOrNotFound(group, params.label_id, params.include_ancestor_groups ?? true);
      return ok(presentGroupLabel(label, { subscribed: await isSubscribed(label, user.id) }));
    },
  }),

  'POST /groups/:id/labels': route({
    params: groupLabelCreateParams,
    handler: async ({ params, user }) => {
      const { group } = await findManagedGroup(params.id, user);
      return created(presentGroupLabel(await createGroupLabel(group, { name: params.name, color: params.color, description: params.description })));
    },
  }),

  'PUT /groups/:id/labels': route({
    params: groupLabelCollectionUpdateParams,
    handler: async ({ params, user }) => update(params.id, (params.label_id ?? params.name)!, params, user),
  }),

  'PUT /groups/:id/labels/:label_id': route({
    params: groupLabelUpdateParams,
    handler: async ({ params, user }) => update(params.id, params.label_id, params, user),
  }),

  'DELETE /groups/:id/labels': route({
    params: groupLabelCollectionDeleteParams,
    handler: async ({ params, user }) => remove(params.id, params.name, user),
  }),

  'DELETE /groups/:id/labels/:label_id': route({
    params: groupLabelPathParams,
    handler: async ({ params, user }) => remove(params.id, params.label_id, user),
  }),

  'POST /groups/:id/labels/:label_id/subscribe': route({
    params: groupLabelPathParams,
    handler: async ({ params, user }) => subscription(params.id, params.label_id, user, true),
  }),

  'POST /groups/:id/labels/:label_id/unsubscribe': route({
    params: groupLabelPathParams,
    handler: async ({ params, user }) => subscription(params.id, params.label_id, user, false),
  }),
} satisfies RoutesOf<typeof catalog.labels>;
