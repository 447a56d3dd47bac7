import type { RouteAuthentication } from '../../platform/http/context';
import { z } from 'zod';
import { p, required } from '../../platform/http/params';

/** Profile fields accepted by `POST /users` and `PUT /users/:id`. */
export const profileParams = {
  email: p.string(),
  username: p.string(),
  name: p.string(),
  password: p.string(),
  skype: p.string(),
  linkedin: p.string(),
  twitter: p.string(),
  website_url: p.string(),
  organization: p.string(),
  projects_limit: p.int(),
  extern_uid: p.string(),
  provider: p.string(),
  bio: p.string(),
  location: p.string(),
  admin: p.bool(),
  can_create_group: p.bool(),
  external: p.bool(),
};

/** `:id` of `/users/:id/...`. */
export const userIdParam = { id: required(p.int()) };

export const sshKeyParams = { title: required(p.string()), key: required(p.string()) };

export const emailParams = { email: required(p.string()) };

export const withUserId = <T extends z.ZodRawShape>(shape: T) => z.object({ ...userIdParam, ...shape });

/** GET routes of the users group also accept a token with only the `read_user` scope. */
export const readUser = { scopes: ['api', 'read_user'] } as const satisfies RouteAuthentication;
