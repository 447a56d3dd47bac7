import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';
import type * as z from 'zod';
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

/**
 * The authenticated caller and the credential it presented. The platform knows no user model:
 * the feature that authenticates (users) declares what these are, by augmenting the interfaces
 * (TypeScript declaration merging), and sets `context.auth` in its middleware.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Caller {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Credential {}

/** Who is calling: the token's owner, or with `sudo` the impersonated user (and who sudoed). */
export interface Authentication {
  user: Caller;
  /** The user's access token presented; null for a CI job's token (then `job` is set). */
  token: Credential | null;
  /**
   * A running job's token (`JOB-TOKEN`) authenticated the request: the job's user, in the job's
   * project and the projects whose job token scope lets it in.
   */
  job?: { projectId: number; jobId: number };
  /** The presented secret (only echoed back as `private_token` on `GET /user` with sudo). */
  secret: string;
  /** The admin who used `sudo`, when the request runs as another user. */
  sudoFrom?: Caller;
}

/** Kinds of token a route may accept (GitLab's `route_setting :authentication`). */
export type TokenKind = 'personal' | 'impersonation';

/** Token scopes, as GitLab names them. */
export type Scope = 'api' | 'read_user' | 'sudo' | 'create_runner';

/** What credentials a route accepts: by default personal and impersonation tokens with the `api` scope. */
export interface RouteAuthentication {
  /** Token kinds accepted. Default: every kind of user token. */
  tokens?: readonly TokenKind[];
  /** Any one of these scopes suffices. Default: `api`. */
  scopes?: readonly Scope[];
  /**
   * GitLab's `job_token_allowed`: a running CI job's token (`JOB-TOKEN` header or `job_token`
   * parameter) authenticates as the job's user; the route must keep the call to the projects the
   * job's token may reach (`Authentication.job`, `findProjectForJobOrNotFound`).
   */
  jobToken?: true;
  /**
   * GitLab's `basic_auth_personal_access_token` (and `job_token_allowed: :basic_auth`): HTTP Basic
   * credentials authenticate too: `gitlab-ci-token:<job token>` (with `jobToken`), a deploy
   * token's `username:token` (with `deployToken`), or any username with a user's access token.
   */
  basic?: true;
  /**
   * GitLab's `deploy_token_allowed`: a deploy token (`Deploy-Token` header, or Basic with
   * `basic`) authenticates the request as itself, not as a user (`RouteRequest.deployToken`); the
   * route checks its scopes and which projects it reaches.
   */
  deployToken?: true;
}

/**
 * A deploy token that authenticated the request (routes declaring `authentication.deployToken`):
 * not a user, so `user` stays null; the route decides what its scopes and reach allow.
 */
export interface DeployTokenCaller {
  id: number;
  username: string;
  scopes: readonly string[];
  /** Whether it reaches a project (its own project, or the projects of its group and subgroups). */
  reaches: (project: { id: number }, namespace: { id: number; ancestorIds: readonly number[] }) => boolean;
}

/** What a route handler receives: only its declared, validated parameters and the caller. */
export interface RouteRequest<P, U extends Caller | null = Caller | null> {
  params: P;
  /** The effective user: never null on a route that requires a token; null for an anonymous request where allowed. */
  user: U;
  auth: Authentication | null;
  /** The deploy token that authenticated the request, on routes that take them (`authentication.deployToken`). */
  deployToken: DeployTokenCaller | null;
  files: Record<string, UploadedFile>;
  /** The request body as bytes, on routes that declare `rawBody` (never parsed as parameters). */
  body?: Buffer;
  requestId: string;
  log: Logger;
  /** The request URL and query, for pagination links. */
  link: PageLinkBase;
}

export interface RouteDefinition<S extends z.ZodType = z.ZodType, R = unknown> {
  /** Declared parameters (path, query and body together); unknown parameters are dropped. */
  params: S;
  /** Routes readable without a token (GitLab's `authenticate_non_get!` reads). Default: token required. */
  anonymous?: boolean;
  /** Which tokens and scopes the route accepts. */
  authentication?: RouteAuthentication;
  /**
   * The body is the route's data, read as bytes whatever its `Content-Type` (GitLab's Workhorse
   * uploads: a package file sent with `curl --upload-file`), never as parameters: `RouteRequest.body`.
   */
  rawBody?: true;
  handler: (request: RouteRequest<z.output<S>>) => Promise<HttpResult<R>>;
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
  /** Set by the authentication middleware when a deploy token authenticated the request. */
  deployToken?: DeployTokenCaller | null;
  /** The raw body, on routes that declare `rawBody`. */
  body?: Buffer;
  /** Set by `streamingHandler`: the response is streamed, so the response size guard allows more. */
  responseStreamed?: boolean;
  /** The route's writes, where the write audit is on (`shared/platform/write-audit.ts`). */
  routeWrites?: string[];
}

export type ApiRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
