import { z } from 'zod';
import type { RouteDefinition } from './context';

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
export function route<S extends z.ZodType>(definition: RouteDefinition<S>): RouteDefinition<S> {
  return definition;
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
