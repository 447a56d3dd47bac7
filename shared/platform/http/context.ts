import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';
import type { z } from 'zod';
import type { AccessToken } from '../../users/store/tokens';
import type { User } from '../../users/store/users';
import type { Logger } from '../logger';
import type { RouteSpec } from './routing';
import type { HttpResult } from './response';
import type { PageLinkBase } from './pagination';

/** An uploaded multipart file. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Who is calling: the token's owner, or with `sudo` the impersonated user (and who sudoed). */
export interface Authentication {
  user: User;
  token: AccessToken;
  /** The presented secret (only echoed back as `private_token` on `GET /user` with sudo). */
  secret: string;
  /** The admin who used `sudo`, when the request runs as another user. */
  sudoFrom?: User;
}

/** What a route handler receives: only its declared, validated parameters and the caller. */
export interface RouteRequest<P> {
  params: P;
  /** The effective user, or null for an anonymous request on a route that allows it. */
  user: User | null;
  auth: Authentication | null;
  files: Record<string, UploadedFile>;
  requestId: string;
  log: Logger;
  /** The request URL and query, for pagination links. */
  link: PageLinkBase;
}

export interface RouteDefinition<S extends z.ZodType = z.ZodType> {
  /** Declared parameters (path, query and body together); unknown parameters are dropped. */
  params: S;
  /** Routes readable without a token (GitLab's `authenticate_non_get!` reads). Default: token required. */
  anonymous?: boolean;
  handler: (request: RouteRequest<z.output<S>>) => Promise<HttpResult>;
}

/** A route resolved for the current request. */
export interface ResolvedRoute {
  spec: RouteSpec;
  definition: RouteDefinition;
}

/** The middy context shared by our middlewares: Lambda's context plus per-request state. */
export interface ApiContext extends Context {
  requestId: string;
  log: Logger;
  startedAt: number;
  route: ResolvedRoute;
  pathParams: Record<string, string>;
  rawParams: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  auth: Authentication | null;
}

export type ApiRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
