/**
 * Project labels: list, read, create, edit, delete (GitLab's `lib/api/labels.rb`). Reading needs
 * a token and read access to the project (GitLab authenticates every labels route); writing needs
 * `admin_label` (reporter or above, or an admin). Edits and deletes exist in two forms, as in
 * GitLab: the label in the path (`:label_id`, an id or a name) or in the parameters (`label_id`
 * or `name`, the older collection form).
 */
import { z } from 'zod';
import { authorize } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, type Project } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createLabel, editLabel, removeLabel } from '../commands/labels';
import { presentLabel } from '../presenters/labels';
import { findLabelOrNotFound, listProjectLabels } from '../queries/labels';
import { exactlyOneOf, labelCreateParams, labelIdOrNameParam, labelListParams, labelSelectorParams, labelUpdateParams, UPDATE_FIELDS } from './labels.params';
import { atLeastOneOf } from './params';

/** The project whose labels the caller may manage: 404 when they cannot see it, 403 when they can but not manage labels. */
async function findLabelledProject(idOrPath: string, user: User): Promise<Project> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_label', subject);
  return subject.project;
}

const SELECTOR = ['label_id', 'name'] as const;

const updateSchema = z.object({ ...idParam, ...labelIdOrNameParam, ...labelUpdateParams }).superRefine(atLeastOneOf(UPDATE_FIELDS));
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
  return ok(presentLabel(await editLabel(label, { name, color, description, priority })));
}

/** Internal: the delete both DELETE forms share (204, as GitLab's `destroy_conditionally!`). */
async function remove(idOrPath: string, labelIdOrName: string | number, user: User) {
  const project = await findLabelledProject(idOrPath, user);
  await removeLabel(await findLabelOrNotFound(project.id, labelIdOrName));
  return noContent();
}

export const labelRoutes = {
  'GET /projects/:id/labels': route({
    params: z.object({ ...idParam, ...labelListParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { project } = await findProjectOrNotFound(params.id, user);
      const page = paginateArray(params, link, await listProjectLabels(project.id, params.search));
      return ok(page.items.map((label) => presentLabel(label, { withCounts: params.with_counts })), page.headers);
    },
  }),

  'GET /projects/:id/labels/:label_id': route({
    params: z.object({ ...idParam, ...labelIdOrNameParam }),
    handler: async ({ params, user }) => {
      const { project } = await findProjectOrNotFound(params.id, user);
      return ok(presentLabel(await findLabelOrNotFound(project.id, params.label_id)));
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

  'PUT /projects/:id/labels/:label_id': route({
    params: updateSchema,
    handler: async ({ params, user }) => update(params, params.label_id, user),
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
