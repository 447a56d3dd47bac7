/**
 * Project lifecycle: creation (path from name, unique path and name per namespace,
 * `projects_limit`), settings, archiving and complete deletion. Every counter and uniqueness rule
 * is enforced inside the DynamoDB transaction that makes the change (`store/projects.ts`), so
 * concurrent requests can't break them; here the store's results become GitLab's answers.
 * Callers have authorized the change (routes authorize, as GitLab's `authorize!`).
 */
import { randomBytes } from 'node:crypto';
import type { ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import type { User } from '../../users';
import { openSecret, sealSecret } from '../../platform/crypto/secret-box';
import { enqueueJob } from '../../platform/jobs';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { deleteProjectChildren, deleteProjectObjects, countForkOut, removeProjectItem } from '../store/deletion';
import { recordEvent } from '../store/events';
import { notifyProjectCreated, notifyProjectDestroyed, notifyRunnerSettings, runRemovalSteps } from './lifecycle';
import { getUsersById } from '../store/lookups';
import { insertProject, markProjectDeleting, newProjectId, readProjectRecord, replaceProject, updateArchived, type InsertProjectResult, type Project, type ProjectClaim, type ReplaceProjectResult } from '../store/projects';
import type { Topic } from '../store/topics';
import { deletedTopicIds, resolveTopics } from './topics';
import { applySettings, DEFAULT_SETTINGS, pathFromName, validateProject, type CreateProjectInput } from './project-settings';
import { unshareProject } from './shares';

const TAKEN = 'has already been taken';
/** How many times a project write resolves its topics again when one was deleted meanwhile. */
const TOPIC_ATTEMPTS = 5;
const TOPICS_CHANGED = 'The topics were modified by another request; try again';

/** A project's topic fields for its topics: their names (as the topics have them) and ids. */
const topicFields = (topics: Topic[]) => ({ tagList: topics.map((topic) => topic.name), topicIds: topics.map((topic) => topic.id) });

/**
 * The fields reported for taken claims on creation: a taken path claim is reported on `name` as
 * well as `path` (what clients have always been answered), a subgroup at the path on `path`.
 */
function takenFields(taken: ProjectClaim[]): Record<string, string[]> {
  return {
    ...(taken.includes('name') || taken.includes('path') ? { name: [TAKEN] } : {}),
    ...(taken.includes('path') || taken.includes('subgroup_path') ? { path: [TAKEN] } : {}),
  };
}

/** The user who owns a personal namespace (whose `projects_limit` applies); `known` when it is them. */
async function limitOwner(namespace: Namespace, known: User): Promise<User | undefined> {
  if (namespace.kind !== 'user') return undefined;
  return namespace.ownerId === known.id ? known : (await getUsersById([namespace.ownerId ?? 0]))[0];
}

/**
 * Writes a new project in `namespace` on behalf of `creator` and records its `created` event.
 * `limitFor` is the owner whose `projects_limit` applies to a personal namespace; `forkOf` the
 * project it is a fork of (a taken name or path is then a 409, as GitLab's fork service answers).
 * @internal shared by {@link createProject} and the fork command.
 */
export async function insertNewProject(
  creator: User,
  namespace: Namespace,
  input: CreateProjectInput,
  options: { limitFor?: User; forkOf?: Project } = {},
): Promise<Project> {
  const name = input.name ?? input.path ?? '';
  const path = input.path ?? pathFromName(name);
  try {
    validateProject(name, path, input);
  } catch (error) {
    // GitLab's fork route answers a fork that does not validate with `conflict!(errors.messages)`.
    if (options.forkOf && error instanceof ValidationError) throw new ApiError(409, { message: error.fields });
    throw error;
  }
  const now = new Date().toISOString();
  // GitLab's runners registration token prefix; sealed on the project, found by its digest.
  const runnersToken = `GR1348941${randomBytes(15).toString('base64url')}`;
  const project: Project = {
    ...applySettings(DEFAULT_SETTINGS, input),
    id: await newProjectId(),
    name,
    path,
    namespaceId: namespace.id,
    creatorId: creator.id,
    archived: false,
    forkedFromId: options.forkOf?.id ?? null,
    runnersTokenSealed: await sealSecret(runnersToken),
    sharedWith: [],
    starCount: 0,
    forksCount: 0,
    openIssuesCount: 0,
    createdAt: now,
    updatedAt: now,
    lastActivityAt: now,
    version: 1,
  };
  const limit = namespace.kind === 'user' ? options.limitFor?.projectsLimit : undefined;
  // Its topics, found or created by name, and the project counted in them as it is written; a
  // topic deleted meanwhile fails the write, which resolves the names again.
  const topicList = input.topics ?? input.tag_list;
  let result: InsertProjectResult;
  for (let attempt = 1; ; attempt++) {
    if (topicList !== undefined) Object.assign(project, topicFields(await resolveTopics(topicList)));
    result = await insertProject(project, namespace, { limit, forkOfId: options.forkOf?.id, runnersToken });
    if (result !== 'topic_gone' || attempt >= TOPIC_ATTEMPTS) break;
  }
  if (result !== 'created') throw creationError(result, limit, options.forkOf !== undefined);
  await recordEvent({ projectId: project.id, authorId: creator.id, actionName: 'created' });
  await notifyProjectCreated({ project, namespace });
  return project;
}

function creationError(result: Exclude<InsertProjectResult, 'created'>, limit: number | undefined, fork: boolean): ApiError {
  if (typeof result === 'object') {
    const fields = takenFields(result.taken);
    return fork ? new ApiError(409, { message: fields }) : new ValidationError(fields);
  }
  switch (result) {
    case 'namespace_gone':
      return new NotFoundError('Namespace');
    case 'namespace_moving':
      return new ConflictError('The namespace is being moved; try again');
    case 'limit_reached':
      return new ValidationError({ limit_reached: [`Your project limit is ${limit} projects! Please contact your administrator to increase it`] });
    case 'fork_source_gone':
      return new NotFoundError('Project');
    case 'topic_gone':
      return new ConflictError(TOPICS_CHANGED);
  }
}

/**
 * Creates a project in `namespace` for `creator` (the caller, or the user an admin creates it
 * for); a personal namespace's owner's `projects_limit` applies.
 */
export async function createProject(creator: User, namespace: Namespace, input: CreateProjectInput): Promise<Project> {
  return insertNewProject(creator, namespace, input, { limitFor: await limitOwner(namespace, creator) });
}

/** Edits a project's name, path and settings; moves the path and name claims when they change. */
export async function updateProject(subject: ProjectSubject, input: CreateProjectInput): Promise<Project> {
  const { project: previous, namespace } = subject;
  const name = input.name ?? previous.name;
  const path = input.path ?? previous.path;
  validateProject(name, path, input, path !== previous.path);
  let next: Project = { ...applySettings(previous, input), name, path, updatedAt: new Date().toISOString(), version: previous.version + 1 };
  // A new topic list: its topics found or created, the project counted in and out of them in its
  // write; a topic deleted meanwhile fails the write, which resolves the names again.
  const topicList = input.topics ?? input.tag_list;
  let result: ReplaceProjectResult;
  for (let attempt = 1; ; attempt++) {
    if (topicList !== undefined) next = { ...next, ...topicFields(await resolveTopics(topicList)) };
    const uncountedTopicIds = await deletedTopicIds((previous.topicIds ?? []).filter((id) => !(next.topicIds ?? []).includes(id)));
    result = await replaceProject(previous, next, namespace, { uncountedTopicIds });
    if (result !== 'topic_gone' || attempt >= TOPIC_ATTEMPTS) break;
  }
  if (result === 'topic_gone') throw new ConflictError(TOPICS_CHANGED);
  if (typeof result === 'object') throw new ValidationError(takenFieldsOnEdit(result.taken));
  if (result === 'namespace_moving') throw new ConflictError('The namespace is being moved; try again');
  if (result === 'project_changed') throw new ConflictError('The project was modified by another request; try again');
  await notifyRunnerSettings(previous, next);
  return next;
}

/** On edit, each claim reports its own field only. */
const takenFieldsOnEdit = (taken: ProjectClaim[]): Record<string, string[]> => ({
  ...(taken.includes('name') ? { name: [TAKEN] } : {}),
  ...(taken.includes('path') || taken.includes('subgroup_path') ? { path: [TAKEN] } : {}),
});

/** Sets `archived`; idempotent (archiving an archived project changes nothing). */
export async function setArchived(project: Project, archived: boolean): Promise<Project> {
  if (project.archived === archived) return project;
  return { ...project, ...(await updateArchived(project.id, archived)), archived };
}

/** The kind of background job that deletes a project (`shared/platform/jobs.ts`). */
export const PROJECT_DELETION = 'project_deletion';

/**
 * Deletes a project in the background, as GitLab does (`DELETE /projects/:id` answers 202): the
 * job is queued first, then the project is marked `deleting`, so it is gone from every read at
 * once and a crash between the two leaves a job that deletes it anyway, never a marked project
 * nobody deletes. The job runs {@link runProjectDeletion}.
 */
export async function scheduleProjectDeletion(project: Project): Promise<void> {
  await enqueueJob(PROJECT_DELETION, project.id);
  await markProjectDeleting(project.id);
}

/** The work of a project deletion job: finishes the deletion wherever a previous run stopped. */
export async function runProjectDeletion(id: number): Promise<void> {
  const project = await readProjectRecord(id);
  if (project) await deleteProject(project);
}

/**
 * Deletes a project with everything it owns: every item of its partition (members, stars,
 * shares, hooks, events, and later issues etc. — their index entries go with them), its S3
 * objects, its path and name claims, its runners token's lookup, the fork count of its source,
 * and finally the project item.
 * Marked `deleting` first, so it disappears from reads at once and a crash midway is finished by
 * a retry.
 */
export async function deleteProject(project: Project): Promise<void> {
  await markProjectDeleting(project.id);
  await runRemovalSteps(project);
  for (const groupId of await deleteProjectChildren(project.id)) await unshareProject(project.id, groupId);
  await deleteProjectObjects(project.id);
  // Already removed: a concurrent deletion finished first (and counted the fork out).
  const runnersToken = project.runnersTokenSealed ? await openSecret(project.runnersTokenSealed) : undefined;
  if ((await removeProjectItem(project, runnersToken)) === 'already_removed') return;
  await notifyProjectDestroyed(project);
  // The source may be gone already: then there is nothing to count down.
  if (project.forkedFromId !== null) await countForkOut(project.forkedFromId);
}
