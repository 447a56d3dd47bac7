/** Parameters of the users routes, and the pieces the routes nested under `/users/:id` share. */
import * as z from 'zod';
import type { RouteAuthentication } from '../../platform/http/context';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { avatarParam } from '../avatars';

/**
 * GitLab's lengths of a user's fields (`User`, `UserDetail`: 255 characters; an email longer than
 * that `is invalid`; a password at most 128 characters), checked before anything is read.
 */
const NAME_LIMIT = { max: 255 } as const;
export const EMAIL_LIMIT = { max: 255, message: 'is invalid' } as const;

/** Profile fields accepted by `POST /users` and `PUT /users/:id`. */
export const profileParams = {
  email: p.string(EMAIL_LIMIT),
  username: p.string(NAME_LIMIT),
  name: p.string(NAME_LIMIT),
  password: p.string({ max: 128 }),
  skype: p.string(NAME_LIMIT),
  linkedin: p.string(NAME_LIMIT),
  twitter: p.string(NAME_LIMIT),
  website_url: p.string(NAME_LIMIT),
  organization: p.string(NAME_LIMIT),
  projects_limit: p.int(),
  extern_uid: p.string(NAME_LIMIT),
  provider: p.string(NAME_LIMIT),
  bio: p.string(NAME_LIMIT),
  location: p.string(NAME_LIMIT),
  admin: p.bool(),
  can_create_group: p.bool(),
  external: p.bool(),
  /** A multipart image file; `""` removes the avatar (`PUT`). */
  avatar: avatarParam,
};

/** `:id` of `/users/:id/...`. */
export const userIdParam = { id: required(p.int()) };

export const withUserId = <T extends z.ZodRawShape>(shape: T) => z.object({ ...userIdParam, ...shape });

/** `GET /users`: paging and GitLab's filters. */
export const listUsersParams = z.object({
  ...paginationParams,
  active: p.bool(),
  blocked: p.bool(),
  search: p.string(),
  username: p.string(),
  extern_uid: p.string(),
  provider: p.string(),
  external: p.bool(),
  exclude_active: p.bool(),
  exclude_external: p.bool(),
  exclude_internal: p.bool(),
  without_project_bots: p.bool(),
  humans: p.bool(),
  exclude_humans: p.bool(),
  created_after: p.dateTime(),
  created_before: p.dateTime(),
  order_by: p.oneOf(['id']),
  sort: p.oneOf(['asc', 'desc']),
});

/** `POST /users`: the profile, with email, username and name required, and a password or `reset_password`. */
export const createUserParams = z
  .object({
    ...profileParams,
    email: required(p.string(EMAIL_LIMIT)),
    username: required(p.string(NAME_LIMIT)),
    name: required(p.string(NAME_LIMIT)),
    reset_password: p.bool(),
    confirm: p.bool(),
  })
  .superRefine((value, ctx) => {
    if (value.password === undefined && !value.reset_password) {
      ctx.addIssue({ code: 'custom', message: 'password, reset_password are missing, at least one parameter must be provided' });
    }
  });

/** GET routes of the users group also accept a token with only the `read_user` scope. */
export const readUser = { scopes: ['api', 'read_user'] } as const satisfies RouteAuthentication;
