/**
 * Project-level and group-level CI/CD variables (GitLab's `lib/api/ci/variables.rb` and
 * `lib/api/group_variables.rb`): list, read, create, update and delete, one set of handlers for
 * both owners. Every route needs `admin_cicd_variables` on its project (maintainers) or group
 * (owners), or to be an admin: a stranger to a private project or group gets 404, a member short
 * of that 403. A key defined in several environment scopes is picked with
 * `filter[environment_scope]` (409 without one, but for a group's `PUT`, which GitLab lets name the
 * key's first variable).
 */
import * as z from 'zod';
import { authorize, isAdmin } from '../../auth';
import { ForbiddenError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findGroupOrNotFound } from '../../namespaces';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createVariable, editVariable, removeVariable, type VariableChanges } from '../commands/variables';
import { presentVariable } from '../presenters/variables';
import { findVariableOrNotFound, openVariable, variableList } from '../queries/variables';
import type { VariableOwner } from '../store/variables';

/** The project whose variables the caller may manage: 404 when they cannot see it, 403 when they can but not manage it. */
async function projectOwner(idOrPath: string, user: User): Promise<VariableOwner> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_cicd_variables', subject);
  return { kind: 'project', id: subject.project.id };
}

/** The group whose variables the caller may manage (its owners): 404 when they cannot see it, 403 when they can but not manage it. */
async function groupOwner(idOrPath: string, user: User): Promise<VariableOwner> {
  const subject = await findGroupOrNotFound(idOrPath, user);
  authorize(user, 'admin_cicd_variables', subject);
  return { kind: 'group', id: subject.group.id };
}

/** GitLab's column limits: a key and a scope of 255 characters, a description of 255, a value of 10,000. */
const TEXT = { max: 255 };

/** `filter[environment_scope]` (a query string's or form's gathered, or a JSON body's object). */
const filterParam = { filter: z.object({ environment_scope: p.string(TEXT) }).optional() };

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

/**
 * The five routes of an owner's variables, `ownerOf` finding the owner the caller may manage.
 * `putWithoutFilter`: what a `PUT` naming a key of several scopes without a filter does.
 */
function ownerVariableRoutes(ownerOf: (idOrPath: string, user: User) => Promise<VariableOwner>, putWithoutFilter: 'conflict' | 'first') {
  return {
    list: route({
      params: z.object({ ...idParam, ...paginationParams }),
      handler: async ({ params, user, link }) => {
        const page = await paginate(params, link, variableList(await ownerOf(params.id, user)));
        return ok((await Promise.all(page.items.map(openVariable))).map(presentVariable), page.headers);
      },
    }),

    read: route({
      params: keyParams,
      handler: async ({ params, user }) => {
        const owner = await ownerOf(params.id, user);
        return ok(presentVariable(await openVariable(await findVariableOrNotFound(owner, params.key, params.filter?.environment_scope))));
      },
    }),

    create: route({
      params: z.object({ ...idParam, ...variableFields, key: required(p.string(TEXT)), value: requiredValue, masked_and_hidden: p.bool() }),
      handler: async ({ params, user }) => {
        const owner = await ownerOf(params.id, user);
        const variable = await createVariable(owner, { ...changesFrom(params), key: params.key, value: params.value, maskedAndHidden: params.masked_and_hidden });
        return created(presentVariable(variable));
      },
    }),

    update: route({
      params: keyParams.extend(variableFields),
      handler: async ({ params, user }) => {
        const owner = await ownerOf(params.id, user);
        const scope = params.filter?.environment_scope ?? params.filter?.environment_scope;
        const variable = await findVariableOrNotFound(owner, params.key, scope, putWithoutFilter);
        return ok(presentVariable(await editVariable(variable, changesFrom(params))));
      },
    }),

    remove: route({
      params: keyParams,
      handler: async ({ params, user }) => {
        const owner = await ownerOf(params.id, user);
        await removeVariable(await findVariableOrNotFound(owner, params.key, params.filter?.environment_scope));
        return noContent();
      },
    }),
  };
}

/** The instance's variables (`/admin/ci/variables`, GitLab's `lib/api/admin/ci/variables.rb`): admins only, 403 for anyone else. */
const INSTANCE: VariableOwner = { kind: 'instance', id: 0 };

function asAdmin(user: User): VariableOwner {
  if (!isAdmin(user)) throw new ForbiddenError();
  return INSTANCE;
}

/** An instance variable has no environment scope: the fields of a project's but that one. */
const { environment_scope: _scope, ...instanceFields } = variableFields;
const instanceKeyParams = z.object({ key: required(p.string()) });

const instanceVariables = {
  list: route({
    params: z.object({ ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, variableList(asAdmin(user)));
      return ok((await Promise.all(page.items.map(openVariable))).map(presentVariable), page.headers);
    },
  }),
  read: route({
    params: instanceKeyParams,
    handler: async ({ params, user }) => ok(presentVariable(await openVariable(await findVariableOrNotFound(asAdmin(user), params.key)))),
  }),
  create: route({
    params: z.object({ ...instanceFields, key: required(p.string(TEXT)), value: requiredValue }),
    handler: async ({ params, user }) => {
      const variable = await createVariable(asAdmin(user), { ...changesFrom(params), key: params.key, value: params.value });
      return created(presentVariable(variable));
    },
  }),
  update: route({
    params: instanceKeyParams.extend(instanceFields),
    handler: async ({ params, user }) => {
      const variable = await findVariableOrNotFound(asAdmin(user), params.key);
      return ok(presentVariable(await editVariable(variable, changesFrom(params))));
    },
  }),
  remove: route({
    params: instanceKeyParams,
    handler: async ({ params, user }) => {
      await removeVariable(await findVariableOrNotFound(asAdmin(user), params.key));
      return noContent();
    },
  }),
};

const projectVariables = ownerVariableRoutes(projectOwner, 'conflict');
const groupVariables = ownerVariableRoutes(groupOwner, 'first');

export const variableRoutes = {
  'GET /projects/:id/variables': projectVariables.list,
  'GET /projects/:id/variables/:key': projectVariables.read,
  'POST /projects/:id/variables': projectVariables.create,
  'PUT /projects/:id/variables/:key': projectVariables.update,
  'DELETE /projects/:id/variables/:key': projectVariables.remove,
  'GET /groups/:id/variables': groupVariables.list,
  'GET /groups/:id/variables/:key': groupVariables.read,
  'POST /groups/:id/variables': groupVariables.create,
  'PUT /groups/:id/variables/:key': groupVariables.update,
  'DELETE /groups/:id/variables/:key': groupVariables.remove,
  'GET /admin/ci/variables': instanceVariables.list,
  'GET /admin/ci/variables/:key': instanceVariables.read,
  'POST /admin/ci/variables': instanceVariables.create,
  'PUT /admin/ci/variables/:key': instanceVariables.update,
  'DELETE /admin/ci/variables/:key': instanceVariables.remove,
} satisfies RoutesOf<typeof catalog.ci_jobs>;
