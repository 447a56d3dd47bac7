/**
 * Project labels: list, read, create, edit, delete (GitLab's `lib/api/labels.rb`). Reading needs
 * a token and read access to the project (GitLab authenticates every labels route); writing needs
 * `admin_label` (reporter or above, or an admin). Lists and single reads include the labels of the
 * project's groups (GitLab's `include_ancestor_groups`, default true); edits and deletes reach only
 * the project's own labels, as GitLab's do. Any reader may subscribe to a label it can see. Edits and deletes exist in two forms, as in
 * GitLab: the label in the path (`:label_id`, an id or a name) or in the parameters (`label_id`
 * or `name`, the older collection form).
 */
import * as z from 'zod';
import { authorize, groupAccessFor } from '../../auth';
import { BadRequestError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, type Project } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createLabel, editLabel, removeLabel } from '../commands/labels';
import { presentGroupLabel, presentLabel } from '../presenters/labels';
import { promoteLabel, setLabelSubscription } from '../commands/group-labels';
import { countsOf, findAvailableLabelOrNotFound, isSubscribed, listAvailableLabels, subscribedAmong } from '../queries/group-labels';
import { findLabelOrNotFound } from '../queries/labels';
import { exactlyOneOf, labelCreateParams, labelIdOrNameParam, labelListParams, labelSelectorParams, labelUpdateParams, UPDATE_FIELDS } from './labels.params';
import { atLeastOneOf } from './params';

/** The project whose labels the caller may manage: 404 when they cannot see it, 403 when they can but not manage labels. */
async function findLabelledProject(idOrPath: string, user: User): Promise<Project> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_label', subject);
  return subject.project;
}

const SELECTOR = ['label_id', 'name'] as const;

/**
 * Promotes one of the project's own labels to its group (GitLab's `promote_label`): `admin_label`
 * on the project and on the group (reporter or above there; 403 otherwise); 400 when the project
 * is not in a group. Answers the group label (`GroupLabel`).
 */
async function promote(idOrPath: string, labelIdOrName: string, user: User) {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_label', subject);
  const { project, namespace } = subject;
  if (namespace.kind !== 'group') throw new BadRequestError('Failed to promote project label to group label');
  authorize(user, 'admin_label', { kind: 'group', group: namespace, level: await groupAccessFor(user, namespace) });
  const groupLabel = await promoteLabel(await findLabelOrNotFound(project.id, labelIdOrName), namespace);
  return ok(presentGroupLabel(groupLabel, { subscribed: await isSubscribed(groupLabel, user.id) }));
}

/**
 * The label literally named `promote` is reached by name like any other (`GET`/`DELETE
 * /labels/promote`), except by `PUT`: GitLab declares the deprecated `PUT /labels/promote` (the
 * label in `name`) before `PUT /labels/:name`, so that path promotes (see {@link PROMOTE}).
 */
const PROMOTE = 'promote';

const updateSchema = z
  .object({ ...idParam, ...labelIdOrNameParam, ...labelUpdateParams, name: p.string() })
  .superRefine((value, ctx) => {
    if (value.label_id !== PROMOTE) return atLeastOneOf(UPDATE_FIELDS)(value, ctx);
    if (value.name === undefined) ctx.addIssue({ code: 'custom', message: 'name is missing' });
  });
const collectionUpdateSchema = z
  .object({ ...idParam, ...labelSelectorParams, ...labelUpdateParams })
  .superRefine(exactlyOneOf(SELECTOR))
  .superRefine(atLeastOneOf(UPDATE_FIELDS));

type UpdateParams = z.output<typeof updateSchema> | z.output<typeof collectionUpdateSchema>;

/** Internal: the edit both PUT forms share. */
async function update(params: UpdateParams, labelIdOrName: string | number, user: User) {
  const project = await findLabelledProject(params.id, user);
  const label = await findLabelOrNotFound(project.id, labelIdOrName);
  const { new_name: name, color, description, priority } = params;
  return ok(presentLabel(await editLabel(label, { name, color, description, priority }), { subscribed: await isSubscribed(label, user.id) }));
}

/** Internal: the delete both DELETE forms share (204, as GitLab's `destroy_conditionally!`). */
async function remove(idOrPath: string, labelIdOrName: string | number, user: User) {
  const project = await findLabelledProject(idOrPath, user);
  await removeLabel(await findLabelOrNotFound(project.id, labelIdOrName));
  return noContent();
}

export const labelRoutes = {
  /** The project's labels and, unless `include_ancestor_groups=false`, its groups' (`is_project_label: false`). */
  'GET /projects/:id/labels': route({
    params: z.object({ ...idParam, ...labelListParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const labels = await listAvailableLabels(project.id, namespace, { includeAncestorGroups: params.include_ancestor_groups ?? true, search: params.search });
      const page = paginateArray(params, link, labels);
      const [subscribed, counts] = await Promise.all([subscribedAmong(page.items, user.id), params.with_counts ? countsOf(page.items) : undefined]);
      const present = (label: (typeof page.items)[number]) =>
        presentLabel(label, { withCounts: params.with_counts, subscribed: subscribed.has(label.id), counts: counts?.get(label.id) });
      return ok(page.items.map(present), page.headers);
    },
  }),

  /** A label of the project or of one of its groups (GitLab's `find_label` with ancestor groups). */
  'GET /projects/:id/labels/:label_id': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const label = await findAvailableLabelOrNotFound(project.id, namespace, params.label_id);
      return ok(presentLabel(label, { subscribed: await isSubscribed(label, user.id) }));
    },
  }),

  /** Promotes a label to the project's group; see `promote`. */
  'PUT /projects/:id/labels/:label_id/promote': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => promote(params.id, params.label_id, user),
  }),

  /** GitLab's `API::Subscriptions` on a label: 201 with the label, 304 when already subscribed. */
  'POST /projects/:id/labels/:label_id/subscribe': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const label = await findAvailableLabelOrNotFound(project.id, namespace, params.label_id);
      await setLabelSubscription(label, user.id, true);
      return created(presentLabel(label, { subscribed: true }));
    },
  }),

  /** 201 with the label, 304 when not subscribed. */
  'POST /projects/:id/labels/:label_id/unsubscribe': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const label = await findAvailableLabelOrNotFound(project.id, namespace, params.label_id);
      await setLabelSubscription(label, user.id, false);
      return created(presentLabel(label, { subscribed: false }));
    },
  }),

  'POST /projects/:id/labels': route({
    params: z.object({ ...idParam, ...labelCreateParams }),
    handler: async ({ params, user }) => {
      const project = await findLabelledProject(params.id, user);
      const { name, color, description, priority } = params;
      return created(presentLabel(await createLabel(project, { name, color, description, priority })));
    },
  }),

  'PUT /projects/:id/labels': route({
    params: collectionUpdateSchema,
    handler: async ({ params, user }) => update(params, (params.label_id ?? params.name)!, user),
  }),

  /**
   * Edits a label, except for `PUT /labels/promote`: the older form of the promotion (GitLab 12.3,
   * deprecated in 12.4 and still served), the label (an id or a name) in `name`. GitLab routes it
   * before `/labels/:name`, so a label named `promote` is edited by id or by the collection form.
   */
  'PUT /projects/:id/labels/:label_id': route({
    params: updateSchema,
    handler: async ({ params, user }) => (params.label_id === PROMOTE ? promote(params.id, params.name!, user) : update(params, params.label_id, user)),
  }),

  'DELETE /projects/:id/labels': route({
    params: z.object({ ...idParam, ...labelSelectorParams }).superRefine(exactlyOneOf(SELECTOR)),
    handler: async ({ params, user }) => remove(params.id, (params.label_id ?? params.name)!, user),
  }),

  'DELETE /projects/:id/labels/:label_id': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => remove(params.id, params.label_id, user),
  }),
} satisfies RoutesOf<typeof catalog.labels>;
