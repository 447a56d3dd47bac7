import * as z from 'zod';
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
export function route<S extends z.ZodType, R>(definition: {
  params: S;
  anonymous: true;
  authentication?: RouteAuthentication;
  rawBody?: true;
  handler: (request: RouteRequest<z.output<S>, Caller | null>) => Promise<HttpResult<R>>;
}): RouteDefinition<S, R>;
/** A route that requires a token: its handler's `user` is never null. */
export function route<S extends z.ZodType, R>(definition: {
  params: S;
  anonymous?: false;
  authentication?: RouteAuthentication;
  rawBody?: true;
  handler: (request: RouteRequest<z.output<S>, Caller>) => Promise<HttpResult<R>>;
}): RouteDefinition<S, R>;
export function route<S extends z.ZodType, R>(definition: unknown): RouteDefinition<S, R> {
  return definition as RouteDefinition<S, R>;
}

/** The schema of a route without parameters. */
export const noParams = z.object({});

/** Any declared route, whatever its parameters and response. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any>;

/** The body a route answers: the type its presenter returns (e.g. `ResponseOf<typeof routes['GET /version']>`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ResponseOf<D> = D extends RouteDefinition<any, infer R> ? R : never;

/**
 * Route definitions for some of the keys of a catalog slice (`typeof catalog.issues`):
 * `createGroupHandler` checks that a group's tables add up to its whole slice.
 */
export type RoutesOf<Keys extends readonly string[]> = Partial<Record<Keys[number], AnyRoute>>;
