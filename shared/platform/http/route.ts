import { z } from 'zod';
import type { GroupName, RouteKeyOf } from '../../catalog';
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

/** A slice of a group's routes; `createGroupHandler` checks that the slices add up to the whole group. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GroupRoutes<G extends GroupName> = Partial<Record<RouteKeyOf<G>, RouteDefinition<any>>>;
