import { z } from 'zod';
import type { Caller, RouteAuthentication, RouteDefinition, RouteRequest } from './context';
import type { HttpResult } from './response';

/**
 * Declares a route: its parameters, whether it can be read anonymously, and a handler that reads
 * as find → authorize → domain call → present.
 *
 * @example
 * route({
 *   params: z.object({ id: required(p.int()) }),
 *   anonymous: true,
 *   handler: async ({ params, user }) => ok(presentUser(await findUserOrNotFound(params.id), user)),
 * });
 */
export function route<S extends z.ZodType>(definition: {
  params: S;
  anonymous: true;
  authentication?: RouteAuthentication;
  handler: (request: RouteRequest<z.output<S>, Caller | null>) => Promise<HttpResult>;
}): RouteDefinition<S>;
/** A route that requires a token: its handler's `user` is never null. */
export function route<S extends z.ZodType>(definition: {
  params: S;
  anonymous?: false;
  authentication?: RouteAuthentication;
  handler: (request: RouteRequest<z.output<S>, Caller>) => Promise<HttpResult>;
}): RouteDefinition<S>;
export function route<S extends z.ZodType>(definition: unknown): RouteDefinition<S> {
  return definition as RouteDefinition<S>;
}

/** The schema of a route without parameters. */
export const noParams = z.object({});

/** Any declared route, whatever its parameters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any>;

/**
 * Route definitions for some of the keys of a catalog slice (`typeof catalog.issues`):
 * `createGroupHandler` checks that a group's tables add up to its whole slice.
 */
export type RoutesOf<Keys extends readonly string[]> = Partial<Record<Keys[number], AnyRoute>>;
