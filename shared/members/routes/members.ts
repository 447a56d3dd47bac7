/**
 * The member routes of groups and projects, `/groups/:id/members...` and `/projects/:id/members...`:
 * the same five routes and rules for both kinds of source, built by one factory. Reads need read
 * access to the source (404 otherwise); writes need the right to manage its members (403 otherwise).
 */
import * as z from 'zod';
import { authorize, GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS, type GroupSubject, type MemberSource, type Membership, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { findProjectOrNotFound } from '../../projects';
import type { RouteDefinition } from '../../platform/http/context';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { addMember, removeMember, updateMember } from '../commands';
import { presentMember } from '../presenters/members';
import { NotFoundError } from '../../platform/http/errors';
import { findMemberOrNotFound, listAllMembers, listMembers, loadUsers, personalProjectOwner, type InheritedSource } from '../queries';

/** What distinguishes groups from projects here: how the source is found and who manages it. */
interface MemberSourceKind<S extends string, Subject> {
  /** The path segment: `groups` or `projects`. */
  segment: S;
  /** Access levels a member of this kind of source may have. */
  accessLevels: readonly number[];
  /** The source by id or full path, if the caller may read it; 404 otherwise. */
  find(idOrPath: string, user: User | null): Promise<Subject>;
  source(subject: Subject): MemberSource;
  /** 403 unless the caller may add, edit and remove members. */
  authorizeAdmin(user: User, subject: Subject): void;
  /** A member the source has without a membership item (a personal project's owner), listed and read as one. */
  implicitMember?(subject: Subject): Membership | undefined;
  /** The sources whose members are the source's members too (`members/all`). */
  inherited(subject: Subject): InheritedSource[];
}

type MemberRouteKey<S extends string> =
  | `GET /${S}/:id/members`
  | `POST /${S}/:id/members`
  | `GET /${S}/:id/members/:user_id`
  | `GET /${S}/:id/members/all`
  | `GET /${S}/:id/members/all/:user_id`
  | `PUT /${S}/:id/members/:user_id`
  | `DELETE /${S}/:id/members/:user_id`;

const memberParams = { ...idParam, user_id: required(p.int()) };

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
function memberRoutes<S extends string, Subject>(kind: MemberSourceKind<S, Subject>): Record<MemberRouteKey<S>, RouteDefinition<any>> {
  const base = `/${kind.segment}/:id/members`;
  const routes = {
    [`GET ${base}`]: route({
      params: z.object({ ...idParam, ...paginationParams, query: p.string() }),
      handler: async ({ params, user, link }) => {
        const subject = await kind.find(params.id, user);
        const page = paginateArray(params, link, await listMembers(kind.source(subject), params.query, kind.implicitMember?.(subject)));
        return ok((await loadUsers(page.items)).map(presentMember), page.headers);
      },
    }),

    [`GET ${base}/:user_id`]: route({
      params: z.object(memberParams),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        return ok(presentMember(await findMemberOrNotFound(kind.source(subject), params.user_id, kind.implicitMember?.(subject))));
      },
    }),

    [`GET ${base}/all`]: route({
      params: z.object({ ...idParam, ...paginationParams, query: p.string() }),
      handler: async ({ params, user, link }) => {
        const subject = await kind.find(params.id, user);
        const all = await listAllMembers(kind.source(subject), kind.inherited(subject), params.query, kind.implicitMember?.(subject));
        const page = paginateArray(params, link, all);
        return ok((await loadUsers(page.items)).map(presentMember), page.headers);
      },
    }),

    [`GET ${base}/all/:user_id`]: route({
      params: z.object(memberParams),
      handler: async ({ params, user }) => {
        const subject = await kind.find(params.id, user);
        const all = await listAllMembers(kind.source(subject), kind.inherited(subject), undefined, kind.implicitMember?.(subject));
        const [member] = await loadUsers(all.filter((entry) => entry.membership.userId === params.user_id));
        if (!member) throw new NotFoundError('Member');
        return ok(presentMember(member));
      },
    }),

    [`POST ${base}`]: route({
      params: z.object({
        ...idParam,
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

/** Group members: levels 10–50; managed by the group's owners (and admins). */
export const groupMemberRoutes = memberRoutes<'groups', GroupSubject>({
  segment: 'groups',
  accessLevels: GROUP_ACCESS_LEVELS,
  find: findGroupOrNotFound,
  source: (subject) => ({ kind: 'group', id: subject.group.id }),
  authorizeAdmin: (user, subject) => authorize(user, 'admin_group', subject),
  inherited: ({ group }) => group.ancestorIds.map((id) => ({ source: { kind: 'group', id } })),
}) satisfies RoutesOf<typeof catalog.members>;

/**
 * Project members: levels 10–40 (owner is not a level to give); managed by maintainers (and
 * admins). A personal project's owner is listed and read as a member at level 50, as GitLab does.
 */
export const projectMemberRoutes = memberRoutes<'projects', ProjectSubject>({
  segment: 'projects',
  accessLevels: PROJECT_ACCESS_LEVELS,
  find: findProjectOrNotFound,
  source: (subject) => ({ kind: 'project', id: subject.project.id }),
  authorizeAdmin: (user, subject) => authorize(user, 'admin_project', subject),
  implicitMember: personalProjectOwner,
  inherited: ({ project, namespace }) => [
    ...(namespace.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : []).map((id) => ({ source: { kind: 'group' as const, id } })),
    ...project.sharedWith
      .filter((share) => share.expiresAt === null || share.expiresAt > new Date().toISOString().slice(0, 10))
      .map((share) => ({ source: { kind: 'group' as const, id: share.groupId }, cap: share.groupAccess })),
  ],
}) satisfies RoutesOf<typeof catalog.members>;
