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
   * GitLab's `basic_auth_personal_access_token` (and, with {@link jobToken}, `job_token_allowed:
   * :basic_auth`): an `Authorization: Basic` header's password is taken as the user's token
   * (whatever the username), or with the username `gitlab-ci-token` as a running CI job's token;
   * what clients that speak only HTTP Basic send (Terraform's `http` backend).
   */
  basicAuth?: true;
}

/** What a route handler receives: only its declared, validated parameters and the caller. */
export interface RouteRequest<P, U extends Caller | null = Caller | null> {
  params: P;
  /** The effective user: never null on a route that requires a token; null for an anonymous request where allowed. */
  user: U;
  auth: Authentication | null;
  files: Record<string, UploadedFile>;
  /** The request body as sent, on a route that declares `rawBody` (undefined when there is none); other routes get it parsed into `params`. */
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
   * The body is the route's document, kept byte for byte (`RouteRequest.body`) rather than parsed
   * into parameters (a Terraform state): parameters then come from the path and the query only.
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
  /** The raw body of a `rawBody` route (`collect-params.ts`). */
  rawBody?: Buffer;
  auth: Authentication | null;
  /** Set by `streamingHandler`: the response is streamed, so the response size guard allows more. */
  responseStreamed?: boolean;
  /** The route's writes, where the write audit is on (`shared/platform/write-audit.ts`). */
  routeWrites?: string[];
}

export type ApiRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;
