/**
 * Project-level CI/CD variables (GitLab's `lib/api/ci/variables.rb`): list, read, create, update
 * and delete. Every route needs `admin_cicd_variables` (maintainers, admins): a stranger to a
 * private project gets 404, a developer 403. A key defined in several environment scopes is
 * picked with `filter[environment_scope]` (409 without one).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, type Project } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createVariable, editVariable, removeVariable, type VariableChanges } from '../commands/variables';
import { presentVariable } from '../presenters/variables';
import { findVariableOrNotFound, openVariable, variableList } from '../queries/variables';

/** The project whose variables the caller may manage: 404 when they cannot see it, 403 when they can but not manage it. */
async function variablesProject(idOrPath: string, user: User): Promise<Project> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_cicd_variables', subject);
  return subject.project;
}

/** GitLab's column limits: a key and a scope of 255 characters, a description of 255, a value of 10,000. */
const TEXT = { max: 255 };

/** `filter[environment_scope]`, as a query string or a form names it. */
const filterParam = { 'filter[environment_scope]': p.string(TEXT) };

const keyParams = z.object({ ...idParam, key: required(p.string()), ...filterParam });

/** What `POST` and `PUT` set (`masked_and_hidden` only on create). */
const variableFields = {
  value: p.string({ max: 10_000 }),
  variable_type: p.oneOf(['env_var', 'file']),
  protected: p.bool(),
  masked: p.bool(),
  raw: p.bool(),
  environment_scope: p.string(TEXT),
  description: p.string(TEXT),
};

/** `value` is required but may be empty (Grape's `requires :value, type: String`). */
const requiredValue = variableFields.value
  .superRefine((value, ctx) => {
    if (value === undefined) ctx.addIssue({ code: 'custom', message: 'value is missing' });
  })
  // A transform makes zod check the key even when it is absent.
  .transform((value) => value as string);

const changesFrom = (params: { [K in keyof typeof variableFields]?: z.output<(typeof variableFields)[K]> }): VariableChanges => ({
  value: params.value,
  variableType: params.variable_type,
  protected: params.protected,
  masked: params.masked,
  raw: params.raw,
  environmentScope: params.environment_scope,
  description: params.description,
});

export const variableRoutes = {
  'GET /projects/:id/variables': route({
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const project = await variablesProject(params.id, user);
      const page = await paginate(params, link, variableList(project.id));
      return ok((await Promise.all(page.items.map(openVariable))).map(presentVariable), page.headers);
    },
  }),

  'GET /projects/:id/variables/:key': route({
    params: keyParams,
    handler: async ({ params, user }) => {
      const project = await variablesProject(params.id, user);
      return ok(presentVariable(await openVariable(await findVariableOrNotFound(project.id, params.key, params['filter[environment_scope]']))));
    },
  }),

  'POST /projects/:id/variables': route({
    params: z.object({ ...idParam, ...variableFields, key: required(p.string(TEXT)), value: requiredValue, masked_and_hidden: p.bool() }),
    handler: async ({ params, user }) => {
      const project = await variablesProject(params.id, user);
      const variable = await createVariable(project.id, { ...changesFrom(params), key: params.key, value: params.value, maskedAndHidden: params.masked_and_hidden });
      return created(presentVariable(variable));
    },
  }),

  'PUT /projects/:id/variables/:key': route({
    // `filter` also as a JSON body's object (`{"filter": {"environment_scope": "production"}}`).
    params: keyParams.extend({ ...variableFields, filter: z.object({ environment_scope: p.string(TEXT) }).optional() }),
    handler: async ({ params, user }) => {
      const project = await variablesProject(params.id, user);
      const variable = await findVariableOrNotFound(project.id, params.key, params['filter[environment_scope]'] ?? params.filter?.environment_scope);
      return ok(presentVariable(await editVariable(variable, changesFrom(params))));
    },
  }),

  'DELETE /projects/:id/variables/:key': route({
    params: keyParams,
    handler: async ({ params, user }) => {
      const project = await variablesProject(params.id, user);
      await removeVariable(await findVariableOrNotFound(project.id, params.key, params['filter[environment_scope]']));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;
