/**
 * Reading runners for the Runners API: one by id (404 `Runner Not Found`), the projects it is
 * enabled in as the caller sees them, and the lists GitLab pages — a project's runners, the
 * runners of the projects the caller maintains (`GET /runners`), every runner (`/runners/all`) and
 * the jobs a runner took. Lists stream their index entries in id order and load the runners (or
 * jobs) a chunk at a time with one batch read, filters applied after the read.
 */
import { groupAccessFor, isAdmin, isMembershipActive, MAINTAINER, OWNER, userMemberships, type GroupSubject, type ProjectSubject } from '../../auth';
import { getNamespace, indexedSubgroups, type Namespace } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { collectionStream, mergedCollections, type StreamEntry, type StreamSource } from '../../platform/http/pagination';
import type { Caller } from '../../platform/http/context';
import type { Item } from '../../platform/dynamo/query';
import { projectList, readableProjects } from '../../projects';
import { canAdminRunners } from '../runner-policy';
import { runnerOnline, runnerStale } from '../presenters/runners';
import { ciCollections } from '../store/keys';
import type { Job } from '../store/pipelines';
import { jobsOfRunnerEntries, runnerById, runnerProjectIds, runnersByDigests, runnerTypeOf, type Runner } from '../store/runners';
import type { JobStatus } from '../status';

const REPORTER = 20;

/** GitLab's `get_runner`: the runner, or `404 Runner Not Found`. */
export async function findRunnerOrNotFound(runnerId: number): Promise<Runner> {
  const runner = await runnerById(runnerId);
  if (!runner) throw new NotFoundError('Runner');
  return runner;
}

/** The projects a runner is enabled in that the caller may read (owner first), as subjects. */
export async function runnerSubjects(user: Caller | null, runner: Runner): Promise<ProjectSubject[]> {
  const ids = runnerProjectIds(runner);
  const readable = await readableProjects(user, ids);
  return ids.flatMap((id) => readable.get(id) ?? []);
}

/** A group runner's group as the caller sees it (none for other runners, or a group gone). */
export async function runnerGroupSubjects(user: Caller | null, runner: Runner): Promise<GroupSubject[]> {
  if (runner.groupId === undefined) return [];
  const group = await getNamespace(runner.groupId);
  return group?.kind === 'group' ? [{ kind: 'group', group, level: await groupAccessFor(user, group) }] : [];
}

/** The list filters of GitLab's runner lists (`type`, `status`, deprecated `scope`, `paused`, `tag_list`, `version_prefix`). */
export interface RunnerFilters {
  type?: string;
  status?: string;
  scope?: string;
  paused?: boolean;
  tagList?: string[];
  versionPrefix?: string;
}

/** One `type`/`status`/`scope` value (GitLab's runner scopes). */
function inScope(runner: Runner, scope: string, now: number): boolean {
  switch (scope) {
    case 'project_type':
    case 'group_type':
    case 'instance_type':
      return runnerTypeOf(runner) === scope;
    // The deprecated scopes: `specific` are project and group runners, `shared` instance runners.
    case 'specific':
      return runnerTypeOf(runner) !== 'instance_type';
    case 'shared':
      return runnerTypeOf(runner) === 'instance_type';
    case 'active':
      return runner.active;
    case 'paused':
      return !runner.active;
    case 'online':
      return runnerOnline(runner, now);
    case 'offline':
      return runner.contactedAt !== null && !runnerOnline(runner, now);
    case 'never_contacted':
      return runner.contactedAt === null;
    case 'stale':
      return runnerStale(runner, now);
    default:
      return false;
  }
}

export function runnerMatchesFilters(runner: Runner, filters: RunnerFilters, now = Date.now()): boolean {
  for (const scope of [filters.type, filters.status, filters.scope]) if (scope !== undefined && !inScope(runner, scope, now)) return false;
  if (filters.paused !== undefined && runner.active === filters.paused) return false;
  if (filters.tagList && !filters.tagList.every((tag) => (runner.tags ?? []).includes(tag))) return false;
  if (filters.versionPrefix !== undefined && !(runner.info?.version ?? '').startsWith(filters.versionPrefix)) return false;
  return true;
}

/** Internal: how many entries a list loads per batch read. */
const chunkSize = (hint: number) => Math.min(Math.max(hint, 20), 100);

/**
 * Internal: runner entries (items carrying `runnerId` and `tokenDigest`, in id order) as a stream
 * of runners: a chunk of entries, one batch read, the filter. An entry repeating the previous
 * runner (lists merged from several projects) is left out.
 */
function loadedRunners(entries: StreamSource<Item>, filters: RunnerFilters): StreamSource<Runner> {
  return {
    async *read(after, hint) {
      const now = Date.now();
      let chunk: Array<StreamEntry<Item>> = [];
      let previous: number | undefined;
      const flush = async function* () {
        const digests = chunk.flatMap((entry) => (entry.value ? [String(entry.value.tokenDigest)] : []));
        const runners = new Map((await runnersByDigests(digests)).map((runner) => [runner.tokenDigest, runner]));
        for (const entry of chunk) {
          const runner = entry.value ? runners.get(String(entry.value.tokenDigest)) : undefined;
          yield { value: runner && runnerMatchesFilters(runner, filters, now) ? runner : undefined, cursor: entry.cursor };
        }
        chunk = [];
      };
      for await (const entry of entries.read(after, hint)) {
        const runnerId = entry.value ? Number(entry.value.runnerId) : undefined;
        chunk.push(runnerId !== undefined && runnerId === previous ? { value: undefined, cursor: entry.cursor } : entry);
        previous = runnerId;
        if (chunk.length >= chunkSize(hint)) yield* flush();
      }
      if (chunk.length > 0) yield* flush();
    },
  };
}

const entriesOf = (collection: ReturnType<typeof ciCollections.allRunners>): StreamSource<Item> =>
  collectionStream({ collection, ascending: true, select: (item) => item });

/** Several runner lists (GSI1 partitions of one sort-key format: `pad(id)`) merged by id. */
const mergedRunnerEntries = (collections: ReturnType<typeof ciCollections.allRunners>[]): StreamSource<Item> =>
  mergedCollections(collections, { ascending: true, isSortKey: (key) => /^\d{12}$/.test(key), select: (item) => item });

/**
 * The runners that serve a project (GitLab's `owned_or_instance_wide`), by id: those enabled in
 * it, its groups' (its namespace and every ancestor) while it has group runners enabled, and,
 * while it has shared runners enabled, the instance runners.
 */
export function projectRunnerList(subject: ProjectSubject, filters: RunnerFilters): StreamSource<Runner> {
  const groups = subject.namespace.kind === 'group' && subject.project.groupRunnersEnabled !== false ? [subject.namespace.id, ...subject.namespace.ancestorIds] : [];
  return loadedRunners(
    mergedRunnerEntries([
      ciCollections.projectRunners(subject.project.id),
      ...groups.map((id) => ciCollections.groupRunners(id)),
      ...(subject.project.sharedRunnersEnabled !== false ? [ciCollections.instanceRunners()] : []),
    ]),
    filters,
  );
}

/** The runners available to a group (GitLab's `group_or_instance_wide`), by id: its own, its ancestors', the instance runners. */
export function groupRunnerList(group: Namespace, filters: RunnerFilters): StreamSource<Runner> {
  return loadedRunners(mergedRunnerEntries([...[group.id, ...group.ancestorIds].map((id) => ciCollections.groupRunners(id)), ciCollections.instanceRunners()]), filters);
}

/** Every runner, by id (admins' `GET /runners/all`). */
export function allRunnerList(filters: RunnerFilters): StreamSource<Runner> {
  return loadedRunners(entriesOf(ciCollections.allRunners()), filters);
}

/** The most groups whose runners `GET /runners` merges (the caller's owned groups and their descendants). */
export const OWNED_GROUPS_LIMIT = 1000;

/**
 * The groups whose runners the caller manages (GitLab's `ci_owned_group_runners`): those they own
 * (an active owner membership) and every descendant of those, each once, walked breadth first
 * from the subgroup index, at most {@link OWNED_GROUPS_LIMIT}.
 */
async function ownedGroupIds(user: Caller): Promise<number[]> {
  const found = new Set<number>();
  const queue: number[] = [];
  for await (const membership of userMemberships(user.id, 'group')) {
    if (membership.accessLevel >= OWNER && isMembershipActive(membership) && !found.has(membership.sourceId)) {
      found.add(membership.sourceId);
      queue.push(membership.sourceId);
    }
  }
  while (queue.length > 0 && found.size < OWNED_GROUPS_LIMIT) {
    for await (const subgroup of indexedSubgroups(queue.shift()!)) {
      if (found.has(subgroup.id) || subgroup.deleting) continue;
      found.add(subgroup.id);
      queue.push(subgroup.id);
      if (found.size >= OWNED_GROUPS_LIMIT) break;
    }
  }
  return [...found];
}

/**
 * GitLab's `ci_owned_runners` (`GET /runners`): the runners of the projects the caller is a
 * maintainer (or owner) of, through a project membership or a group's, and the group runners of
 * the groups they own and of those groups' descendants, merged by id; never instance runners
 * (admins list them with `/runners/all`). The caller's projects and groups are read from their
 * memberships (bounded by them), each project's and group's runners from its index partition.
 */
export async function ownedRunnerList(user: Caller, filters: RunnerFilters): Promise<StreamSource<Runner>> {
  const projects = await projectList(user, { membership: true }, {});
  const maintained: number[] = [];
  const consider = (subject: ProjectSubject) => {
    if (subject.access.level >= MAINTAINER && canAdminRunners(user, subject)) maintained.push(subject.project.id);
  };
  if (Array.isArray(projects)) projects.forEach(consider);
  else for await (const entry of projects.read(undefined, 100)) if (entry.value) consider(entry.value);
  const groups = await ownedGroupIds(user);
  const merged = mergedCollections(
    [...maintained.map((id) => ciCollections.projectRunners(id)), ...groups.map((id) => ciCollections.groupRunners(id))],
    { ascending: true, isSortKey: (key) => /^\d{12}$/.test(key), select: (item) => item },
  );
  return loadedRunners(merged, filters);
}

/** A job a runner took, with its project as the caller sees it. */
export interface RunnerJob {
  job: Job;
  subject: ProjectSubject;
}

/**
 * The jobs a runner took (GitLab's `RunnerJobsFinder`), newest first unless `ascending`, only
 * those in `statuses` when given and, for anyone but an admin, only in projects where the caller
 * is at least a reporter.
 */
export function runnerJobList(user: Caller, runner: Runner, options: { statuses?: readonly JobStatus[]; ascending: boolean }): StreamSource<RunnerJob> {
  const entries = collectionStream({ collection: ciCollections.runnerJobs(runner.id), ascending: options.ascending, select: (item) => item });
  const subjects = new Map<number, ProjectSubject | null>();
  const allowed = (subject: ProjectSubject | null | undefined): subject is ProjectSubject =>
    subject !== null && subject !== undefined && (isAdmin(user) || subject.access.level >= REPORTER);
  return {
    async *read(after, hint) {
      let chunk: Array<StreamEntry<Item>> = [];
      const flush = async function* () {
        const items = chunk.flatMap((entry) => (entry.value ? [entry.value] : []));
        const unknown = [...new Set(items.map((item) => Number(item.projectId)))].filter((id) => !subjects.has(id));
        const [jobs, readable] = await Promise.all([jobsOfRunnerEntries(items), unknown.length > 0 ? readableProjects(user, unknown) : new Map<number, ProjectSubject>()]);
        for (const id of unknown) subjects.set(id, readable.get(id) ?? null);
        for (const entry of chunk) {
          const job = entry.value ? jobs.get(Number(entry.value.jobId)) : undefined;
          const subject = job ? subjects.get(job.projectId) : undefined;
          const keep = job && allowed(subject) && (!options.statuses || options.statuses.includes(job.status));
          yield { value: keep ? { job, subject } : undefined, cursor: entry.cursor };
        }
        chunk = [];
      };
      for await (const entry of entries.read(after, hint)) {
        chunk.push(entry);
        if (chunk.length >= chunkSize(hint)) yield* flush();
      }
      if (chunk.length > 0) yield* flush();
    },
  };
}
