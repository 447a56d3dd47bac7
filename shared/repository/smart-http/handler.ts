/**
 * git's smart HTTP transport (gitprotocol-http), served by the web function in front of its route
 * table: `GET …/info/refs?service=…` advertises refs, `POST …/git-upload-pack` sends objects (clone,
 * fetch), `POST …/git-receive-pack` receives them (push). Each POST is one stateless RPC round.
 *
 * Authentication as GitLab's: HTTP Basic, the password being a token (any username) or the user's
 * own password. A request that needs a user and has none gets 401 with `WWW-Authenticate: Basic`,
 * so `git` asks for credentials; a signed-in user who may not see the project gets the same 404 as
 * for a project that does not exist.
 *
 * A CI job clones with `gitlab-ci-token` and its job token while it runs (`credentials.ts`): its
 * own project is readable whatever its visibility; another project when its job token scope lets
 * the job's project in (`jobTokenMayReach`, the one decision the API's job token routes use too)
 * and the job's user may download its code; otherwise only as it is to anyone (a public project:
 * GitLab lets any job token read the repository of a public project), and nothing can be pushed
 * with it: GitLab's job token has no `push_code`
 * ability, so `Gitlab::GitAccess` refuses any receive-pack with 403 "You are not allowed to
 * upload code." before it looks at the project. A token whose job ended authenticates nothing (401).
 *
 * A deploy token clones as `<its username>:<token>` (`credentials.ts`, resolved by the deploy tokens
 * feature): the projects it reaches (its project, or those of its group and subgroups), whatever
 * their visibility, with `read_repository`; never a push (GitLab gives deploy tokens no
 * `push_code`). A user's credentials are tried as before, at the same cost.
 *
 * A project is also found at a former path (a redirect route: renamed, transferred, or its
 * namespace renamed): it is served, and git is told that it moved (GitLab's
 * `Gitlab::Checks::ContainerMoved`), on side band 2, which git prints on its `remote:` lines.
 */
import { gunzipSync } from 'node:zlib';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { can, type ProjectSubject } from '../../auth';
import type { ApiContext } from '../../platform/http/context';
import { NotFoundError } from '../../platform/http/errors';
import { requestLogger } from '../../platform/middleware/request-logger';
import { streamedResult } from '../../platform/streaming';
import { findProjectAt, findProjectAtPath, findProjectOrNotFound, jobTokenMayReach, projectFullPath, projectSubject, webUrlOf, type Project } from '../../projects';
import { authenticateGitCredentials, getUser, type User } from '../../users';
import { openRepository, openWikiRepository, type Repository } from '../repository';
import { parseGitAddress, type GitAddress } from './address';
import { requestedVersion } from '../git/protocol/advertise';
import { ProtocolError } from '../git/protocol/errors';
import { advertise } from './advertise';
import { basicCredentials, deployTokenCredential, jobTokenCredential, type DeployTokenAccess, type JobTokenAccess } from './credentials';
import { receivePack } from './receive-pack';
import { uploadPack } from './upload-pack';

/** A plain-text answer (git prints it after `remote:` or in its error). */
function text(statusCode: number, body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body, isBase64Encoded: false };
}

const unauthorized = () => text(401, 'HTTP Basic: Access denied\n', { 'WWW-Authenticate': 'Basic realm="GitLab"' });

/** The repository an address names: the project's code, or its wiki. */
const openAddressed = (address: GitAddress, project: Project): Promise<Repository> => (address.wiki ? openWikiRepository(project) : openRepository(project));
const notFound = () => text(404, "The project you were looking for could not be found or you don't have permission to view it.\n");

const NO_CACHE = { 'Cache-Control': 'no-cache, max-age=0, must-revalidate', Pragma: 'no-cache', Expires: 'Fri, 01 Jan 1980 00:00:00 GMT' };

function binary(contentType: string, body: Buffer): APIGatewayProxyResult {
  return { statusCode: 200, headers: { 'Content-Type': contentType, ...NO_CACHE }, body: body.toString('base64'), isBase64Encoded: true };
}

/** Whether the request addresses the smart HTTP transport (the web function then serves it here). */
export function isGitAddress(event: APIGatewayProxyEvent): boolean {
  return gitAddressOf(event) !== undefined;
}

function gitAddressOf(event: APIGatewayProxyEvent): GitAddress | undefined {
  const raw = event.pathParameters?.path;
  if (!raw) return undefined;
  let path: string;
  try {
    path = raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  return parseGitAddress(event.httpMethod, path, event.queryStringParameters?.service ?? undefined);
}

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const found = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1] ?? undefined;
}

function requestBody(event: APIGatewayProxyEvent): Buffer {
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  // git gzips large negotiation requests; a gateway with content encoding enabled has inflated them already.
  const gzipped = header(event, 'content-encoding')?.toLowerCase() === 'gzip' && raw[0] === 0x1f && raw[1] === 0x8b;
  return gzipped ? gunzipSync(raw) : raw;
}

/** Who calls: a user, nobody (anonymous), a running CI job (its token), a deploy token, or 'denied' for credentials that do not authenticate. */
type GitCaller =
  | { user: User | null; job?: undefined; deploy?: undefined }
  | { user: null; job: JobTokenAccess; deploy?: undefined }
  | { user: null; job?: undefined; deploy: DeployTokenAccess }
  | 'denied';

async function callerOf(event: APIGatewayProxyEvent, service: 'git-upload-pack' | 'git-receive-pack'): Promise<GitCaller> {
  const credentials = basicCredentials(header(event, 'authorization'));
  if (!credentials) return { user: null };
  const job = await jobTokenCredential(credentials);
  if (job) return { user: null, job };
  const deploy = await deployTokenCredential(credentials);
  if (deploy) return { user: null, deploy };
  const user = await authenticateGitCredentials(credentials.username, credentials.password, service);
  return user ? { user } : 'denied';
}

/** The job's own project when `path` names it (case-insensitively, as project paths are found). */
async function jobProjectAt(path: string, job: JobTokenAccess): Promise<Project | undefined> {
  const own = await findProjectAt(String(job.projectId));
  return own && projectFullPath(own.namespace, own.project).toLowerCase() === path.toLowerCase() ? own.project : undefined;
}

/**
 * What a job token may fetch from `path`: its own project; another one its scope lets the job in
 * ({@link jobTokenMayReach}) whose code the job's user may download; or a project anyone may
 * download. Undefined otherwise (answered 404: the token is valid, the project is not its to read).
 */
async function jobReadable(path: string, job: JobTokenAccess): Promise<Project | undefined> {
  const own = await jobProjectAt(path, job);
  if (own) return own;
  const found = job.userId ? await getUser(job.userId) : undefined;
  const user = found?.state === 'active' ? found : null;
  const subject = user ? await projectOf(path, user) : undefined;
  if (subject && can(user, 'download_code', subject) && (await jobTokenMayReach(job, subject))) return subject.project;
  const open = await projectOf(path, null);
  return open && can(null, 'download_code', open) ? open.project : undefined;
}

async function projectOf(path: string, user: User | null): Promise<ProjectSubject | undefined> {
  try {
    return await findProjectOrNotFound(path, user);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * GitLab's `ContainerMoved` message when `requested` is a former path of the project (its current
 * full path differs beyond case), with the command that points the clone at the new address.
 */
export function movedMessage(requested: string, subject: ProjectSubject): string | undefined {
  const current = projectFullPath(subject.namespace, subject.project);
  if (current.toLowerCase() === requested.toLowerCase()) return undefined;
  return `Project '${requested}' was moved to '${current}'.\n\nPlease update your Git remote:\n\n  git remote set-url origin ${webUrlOf(current)}.git\n`;
}

/**
 * GitLab's `RepoPath.parse` tries the project first: `<path>.wiki.git` is the project at
 * `<path>.wiki` when there is one (a project path may end in `.wiki`), else the wiki of `<path>`.
 */
async function resolveWiki(address: GitAddress): Promise<GitAddress> {
  if (!address.wiki) return address;
  const projectPath = `${address.projectPath}.wiki`;
  return (await findProjectAtPath(projectPath)) ? { ...address, projectPath, wiki: false } : address;
}

async function serve(event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> {
  const address = await resolveWiki(gitAddressOf(event)!);
  const caller = await callerOf(event, address.service);
  if (caller === 'denied') return unauthorized();
  if (caller.job) {
    if (address.service === 'git-receive-pack') return text(403, 'You are not allowed to upload code.\n');
    const project = await jobReadable(address.projectPath, caller.job);
    if (project && address.wiki && !project.wikiEnabled) return notFound();
    return project ? answer(event, context, address, await openAddressed(address, project)) : notFound();
  }
  if (caller.deploy) return serveDeployToken(event, context, address, caller.deploy);
  const { user } = caller;
  const subject = await projectOf(address.projectPath, user);
  if (!subject) return user ? notFound() : unauthorized();

  if (address.wiki) return serveWiki(event, context, address, subject, user);
  if (address.service === 'git-upload-pack' && !can(user, 'download_code', subject)) return user ? notFound() : unauthorized();
  if (address.service === 'git-receive-pack') {
    if (!user) return unauthorized();
    if (!can(user, 'push_code', subject)) {
      return text(403, subject.project.archived ? "You can't push code to an archived project.\n" : 'You are not allowed to push code to this project.\n');
    }
  }
  const moved = movedMessage(address.projectPath, subject);
  return answer(event, context, address, await openRepository(subject.project), user ? { subject, user } : undefined, moved);
}

/**
 * A request for the project's wiki repository, as GitLab's `GitAccessWiki` decides: cloning needs
 * `download_wiki_code`, pushing `create_wiki` (no protected branches apply to a wiki).
 */
async function serveWiki(event: APIGatewayProxyEvent, context: ApiContext, address: GitAddress, subject: ProjectSubject, user: User | null): Promise<APIGatewayProxyResult> {
  if (!can(user, 'read_wiki', subject)) return user ? notFound() : unauthorized();
  if (address.service === 'git-upload-pack' && !can(user, 'download_wiki_code', subject)) {
    return user ? text(403, 'You are not allowed to download files from this wiki.\n') : unauthorized();
  }
  if (address.service === 'git-receive-pack') {
    if (!user) return unauthorized();
    if (!can(user, 'create_wiki', subject)) return text(403, "You are not allowed to write to this project's wiki.\n");
  }
  const moved = movedMessage(address.projectPath, subject);
  return answer(event, context, address, await openWikiRepository(subject.project), user ? { subject, user } : undefined, moved);
}

/**
 * A deploy token's request, in GitLab's order: a project it does not reach refuses the credential
 * (401: `deploy_token_check` authenticates a token only for the projects it reaches); a push is
 * refused (403: no deploy token has `push_code`, GitLab's `check_authentication_abilities!`), as
 * a clone is by a token without `read_repository`; a path that names no project is a 404.
 */
async function serveDeployToken(event: APIGatewayProxyEvent, context: ApiContext, address: GitAddress, deploy: DeployTokenAccess): Promise<APIGatewayProxyResult> {
  const found = await findProjectAtPath(address.projectPath);
  if (found && !deploy.reaches(found.project, found.namespace)) return unauthorized();
  if (address.service === 'git-receive-pack') return text(403, 'You are not allowed to upload code.\n');
  if (!deploy.scopes.includes('read_repository')) return text(403, 'You are not allowed to download code.\n');
  if (!found || (address.wiki && !found.project.wikiEnabled)) return notFound();
  const moved = movedMessage(address.projectPath, await projectSubject(found.project, found.namespace, null));
  return answer(event, context, address, await openAddressed(address, found.project), undefined, moved);
}

/** Internal: the advertisement or the RPC's result, once the caller may do it (`pusher`: who pushes, for receive-pack). */
async function answer(
  event: APIGatewayProxyEvent,
  context: ApiContext,
  address: GitAddress,
  repository: Repository,
  pusher?: { subject: ProjectSubject; user: User },
  moved?: string,
): Promise<APIGatewayProxyResult> {
  const version = address.service === 'git-upload-pack' ? requestedVersion(header(event, 'git-protocol')) : 0;
  if (address.action === 'advertise') {
    return binary(`application/x-${address.service}-advertisement`, await advertise(repository, address.service, version));
  }
  if (header(event, 'content-type') !== `application/x-${address.service}-request`) return text(415, 'Unsupported Media Type\n');
  const body = requestBody(event);
  try {
    const result = address.service === 'git-upload-pack'
      ? await uploadPack(repository, body, version, context.log, moved)
      : await receivePack({ repository, subject: pusher!.subject, user: pusher!.user, log: context.log }, body, moved);
    const contentType = `application/x-${address.service}-result`;
    return Buffer.isBuffer(result) ? binary(contentType, result) : streamedResult(200, { 'Content-Type': contentType, ...NO_CACHE }, result);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return text(400, `${error.message}\n`);
  }
}

/** The smart HTTP handler: the platform's request logging, then {@link serve}. */
export const smartHttpHandler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>()
  .use(requestLogger())
  .handler(serve);
