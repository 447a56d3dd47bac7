/**
 * The member routes of one kind of source, `/groups/:id/members...` or `/projects/:id/members...`:
 * the same five routes and rules for both, built by one factory. Reads need read access to the
 * source (404 otherwise); writes need the right to manage its members (403 otherwise).
 */
import { z } from 'zod';
import type { RouteDefinition } from '../../platform/http/context';
import type { MemberSource } from '../../auth';
import type { User } from '../../users';
import { addMember, findMemberOrNotFound, listMembers, removeMember, updateMember } from '../members';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route } from '../../platform/http/route';
import { presentMember } from '../presenters/members';

/** What distinguishes groups from projects here: how the source is found and who manages it. */
export interface MemberSourceKind<S extends string, Subject> {
  /** The path segment: `groups` or `projects`. */
  segment: S;
  /** Access levels a member of this kind of source may have. */
  accessLevels: readonly number[];
  /** The source by id or full path, if the caller may read it; 404 otherwise. */
  find(idOrPath: string, user: User | null): Promise<Subject>;
  source(subject: Subject): MemberSource;
  /** 403 (401 when anonymous) unless the caller may add, edit and remove members. */
  authorizeAdmin(user: User | null, subject: Subject): asserts user is User;
}

type MemberRouteKey<S extends string> =
  | `GET /${S}/:id/members`
  | `POST /${S}/:id/members`
  | `GET /${S}/:id/members/:user_id`
  | `PUT /${S}/:id/members/:user_id`
  | `DELETE /${S}/:id/members/:user_id`;

/** `:id` (numeric id or URL-encoded full path) of the group or project. */
const sourceIdParam = { id: required(p.string()) };
const memberParams = { ...sourceIdParam, user_id: required(p.int()) };

/** An access level among `levels`, required; others answer Grape's `does not have a valid value`. */
const accessLevelParam = (levels: readonly number[]) =>
  required(
    p.int().refine((level) => level === undefined || levels.includes(level), {
      message: 'access_level does not have a valid value',
    }),
  );

/** `expires_at` of an edit: absent keeps the date, blank or null clears it (GitLab). */
const expiryChangeParam = z.preprocess((value) => (value === '' || value === null ? null : value), z.union([z.null(), p.date()]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function memberRoutes<S extends string, Subject>(kind: MemberSourceKind<S, Subject>): Record<MemberRouteKey<S>, RouteDefinition<any>> {
  const base = `/${kind.segment}/:id/members`;
  const routes = {
    [`GET ${base}`]: route({
      params: z.object({ ...sourceIdParam, ...paginationParams, query: p.string() }),
      handler: async ({ params, user, link }) => {
        const subject = await kind.find(params.id, user);
        const page = await listMembers(kind.source(subject), params.query, params, link);
        return ok(page.items.map(presentMember), page.headers);
      },
    }),

    [`GET ${base}/:user_id`]: route({
      params: z.object(memberParams),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        return ok(presentMember(await findMemberOrNotFound(kind.source(subject), params.user_id)));
      },
    }),

    [`POST ${base}`]: route({
      params: z.object({
        ...sourceIdParam,
        user_id: required(p.int()),
        access_level: accessLevelParam(kind.accessLevels),
        expires_at: p.date(),
      }),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        kind.authorizeAdmin(user, subject);
        const member = await addMember(
          kind.source(subject),
          { userId: params.user_id, accessLevel: params.access_level, expiresAt: params.expires_at ?? null },
          user,
        );
        return created(presentMember(member));
      },
    }),

    [`PUT ${base}/:user_id`]: route({
      params: z.object({ ...memberParams, access_level: accessLevelParam(kind.accessLevels), expires_at: expiryChangeParam }),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        kind.authorizeAdmin(user, subject);
        const member = await updateMember(kind.source(subject), params.user_id, {
          accessLevel: params.access_level,
          expiresAt: params.expires_at,
        });
        return ok(presentMember(member));
      },
    }),

    [`DELETE ${base}/:user_id`]: route({
      params: z.object(memberParams),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        kind.authorizeAdmin(user, subject);
        await removeMember(kind.source(subject), params.user_id);
        return noContent();
      },
    }),
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return routes as Record<MemberRouteKey<S>, RouteDefinition<any>>;
}
