/**
 * SSH keys and secondary emails follow one set of rules, so one factory declares both route
 * tables: `/user/<resource>` for the current user (deleting something already gone is a 200, per
 * the specification) and `/users/:id/<resource>` for admins (a missing user or item is a 404).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { NotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, emptyOk, ok } from '../../platform/http/response';
import { route, type AnyRoute } from '../../platform/http/route';
import { findUserOrNotFound } from '../finders';
import type { User } from '../store/users';
import { readUser, withUserId } from './users.params';

export interface CredentialResource<T, S extends z.ZodRawShape> {
  /** Name in `404 <name> Not Found`. */
  name: string;
  /** Parameters of a create, besides the user id. */
  createParams: S;
  list(userId: number): Promise<T[]>;
  get(userId: number, id: number): Promise<T | undefined>;
  add(user: User, params: z.output<z.ZodObject<S>>): Promise<T>;
  remove(userId: number, id: number): Promise<T | undefined>;
  present(item: T): unknown;
}

type CredentialRouteKeys<R extends string, I extends string> =
  | `GET /user/${R}`
  | `GET /user/${R}/:${I}`
  | `POST /user/${R}`
  | `DELETE /user/${R}/:${I}`
  | `GET /users/:id/${R}`
  | `POST /users/:id/${R}`
  | `DELETE /users/:id/${R}/:${I}`;

export function credentialRoutes<R extends string, I extends string, T, S extends z.ZodRawShape>(
  segment: R,
  idParam: I,
  resource: CredentialResource<T, S>,
): Record<CredentialRouteKeys<R, I>, AnyRoute> {
  const itemId = { [idParam]: required(p.int()) };
  const idOf = (params: Record<string, unknown>) => params[idParam] as number;
  /** The user id of `/users/:id/...` routes (the schemas are built at run time, hence untyped). */
  const ownerIdOf = (params: Record<string, unknown>) => params.id as number;
  const findOrNotFound = async (userId: number, id: number) => {
    const item = await resource.get(userId, id);
    if (!item) throw new NotFoundError(resource.name);
    return item;
  };

  return {
    [`GET /user/${segment}`]: route({
      authentication: readUser,
      params: z.object(paginationParams),
      handler: async ({ params, user, link }) => {
        const page = paginateArray(params, link, await resource.list(user.id));
        return ok(page.items.map(resource.present), page.headers);
      },
    }),

    [`GET /user/${segment}/:${idParam}`]: route({
      authentication: readUser,
      params: z.object(itemId),
      handler: async ({ params, user }) => ok(resource.present(await findOrNotFound(user.id, idOf(params)))),
    }),

    [`POST /user/${segment}`]: route({
      params: z.object(resource.createParams),
      handler: async ({ params, user }) => created(resource.present(await resource.add(user, params))),
    }),

    [`DELETE /user/${segment}/:${idParam}`]: route({
      params: z.object(itemId),
      handler: async ({ params, user }) => {
        const deleted = await resource.remove(user.id, idOf(params));
        return deleted ? ok(resource.present(deleted)) : emptyOk();
      },
    }),

    [`GET /users/:id/${segment}`]: route({
      authentication: readUser,
      params: withUserId(paginationParams),
      handler: async ({ params, user, link }) => {
        authorize(user, 'admin_users');
        const owner = await findUserOrNotFound(params.id);
        const page = paginateArray(params, link, await resource.list(owner.id));
        return ok(page.items.map(resource.present), page.headers);
      },
    }),

    [`POST /users/:id/${segment}`]: route({
      params: withUserId(resource.createParams),
      handler: async ({ params, user }) => {
        authorize(user, 'admin_users');
        const owner = await findUserOrNotFound(ownerIdOf(params));
        return created(resource.present(await resource.add(owner, params as z.output<z.ZodObject<S>>)));
      },
    }),

    [`DELETE /users/:id/${segment}/:${idParam}`]: route({
      params: withUserId(itemId),
      handler: async ({ params, user }) => {
        authorize(user, 'admin_users');
        const owner = await findUserOrNotFound(ownerIdOf(params));
        const deleted = await resource.remove(owner.id, idOf(params));
        if (!deleted) throw new NotFoundError(resource.name);
        return ok(resource.present(deleted));
      },
    }),
  } as Record<CredentialRouteKeys<R, I>, AnyRoute>;
}
