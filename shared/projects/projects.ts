/**
 * Project lifecycle rules: creation (path from name, unique path per namespace, projects_limit),
 * settings, forks and fork relations, stars, archiving, sharing with groups, and complete
 * deletion. Every counter and uniqueness rule is enforced inside the DynamoDB transaction that
 * makes the change, so concurrent requests can't break them.
 */
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProjectSubject } from '../auth';
import { config } from '../platform/config';
import { randomBytes } from 'node:crypto';
import { sealSecret } from '../platform/crypto/secret-box';
import { deleteMany, getMany } from '../platform/dynamo/batch';
import { db, s3, tableName } from '../platform/dynamo/client';
import { ifConditionHolds } from '../platform/dynamo/conditional';
import { nextId } from '../platform/dynamo/counters';
import { recordEvent } from './store/events';
import { type Key } from '../platform/dynamo/keys';
import { namespaceKeys, type Namespace, reservedPathMessage } from '../groups';
import { projectCollections, projectIndexKeys, projectKeys } from './store/keys';
import { getProject, markProjectDeleting, projectCounterUpdate, projectToItem, type Project, type ProjectSettings, type ProjectShare } from './store/projects';
import { queryCollection } from '../platform/dynamo/query';
import { TransactionConditionFailed, transactWrite } from '../platform/dynamo/transactions';
import { putClaim } from '../platform/dynamo/items';
import type { User } from '../users';
import { ApiError, ConflictError, NotFoundError, NotModifiedError, ValidationError } from '../platform/http/errors';


/** Settings as the API names them (create, create-for-user, edit). */
export interface ProjectSettingsInput {
  description?: string;
  default_branch?: string;
  visibility?: 'private' | 'internal' | 'public';
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  jobs_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  public_jobs?: boolean;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
  import_url?: string;
  tag_list?: string[];
}

const DEFAULT_SETTINGS: ProjectSettings = {
  description: null,
  defaultBranch: 'master',
  visibility: 'private',
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  jobsEnabled: true,
  wikiEnabled: true,
  snippetsEnabled: true,
  containerRegistryEnabled: true,
  sharedRunnersEnabled: true,
  publicJobs: true,
  onlyAllowMergeIfPipelineSucceeds: false,
  onlyAllowMergeIfAllDiscussionsAreResolved: false,
  lfsEnabled: true,
  requestAccessEnabled: false,
  importUrl: null,
  tagList: [],
};

function applySettings<T extends ProjectSettings>(base: T, input: ProjectSettingsInput): T {
  const next = { ...base };
  if (input.description !== undefined) next.description = input.description;
  if (input.default_branch !== undefined) next.defaultBranch = input.default_branch;
  if (input.visibility !== undefined) next.visibility = input.visibility;
  if (input.issues_enabled !== undefined) next.issuesEnabled = input.issues_enabled;
  if (input.merge_requests_enabled !== undefined) next.mergeRequestsEnabled = input.merge_requests_enabled;
  if (input.jobs_enabled !== undefined) next.jobsEnabled = input.jobs_enabled;
  if (input.wiki_enabled !== undefined) next.wikiEnabled = input.wiki_enabled;
  if (input.snippets_enabled !== undefined) next.snippetsEnabled = input.snippets_enabled;
  if (input.container_registry_enabled !== undefined) next.containerRegistryEnabled = input.container_registry_enabled;
  if (input.shared_runners_enabled !== undefined) next.sharedRunnersEnabled = input.shared_runners_enabled;
  if (input.public_jobs !== undefined) next.publicJobs = input.public_jobs;
  if (input.only_allow_merge_if_pipeline_succeeds !== undefined) next.onlyAllowMergeIfPipelineSucceeds = input.only_allow_merge_if_pipeline_succeeds;
  if (input.only_allow_merge_if_all_discussions_are_resolved !== undefined)
    next.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  if (input.lfs_enabled !== undefined) next.lfsEnabled = input.lfs_enabled;
  if (input.request_access_enabled !== undefined) next.requestAccessEnabled = input.request_access_enabled;
  if (input.import_url !== undefined) next.importUrl = input.import_url;
  if (input.tag_list !== undefined) next.tagList = input.tag_list;
  return next;
}

const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}\p{Emoji_Presentation}_. +-]*$/u;
const NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";

/** GitLab's path from a name: lower case, runs of other characters become one dash. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

function validate(name: string, path: string, input: ProjectSettingsInput): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (name.trim() === '') add('name', "can't be blank");
  else if (!NAME.test(name)) add('name', NAME_MESSAGE);
  if (name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (path === '') add('path', "can't be blank");
  else if (!PATH.test(path) || /\.(git|atom)$/i.test(path)) add('path', PATH_MESSAGE);
  const reserved = path === '' ? undefined : reservedPathMessage(path, 'project');
  if (reserved) add('path', reserved);
  if (path.length > 255) add('path', 'is too long (maximum is 255 characters)');
  if (input.import_url !== undefined && !/^(https?|git):\/\//.test(input.import_url)) add('import_url', 'is blocked: Only allowed schemes are http, https, git');
  if (input.default_branch !== undefined && input.default_branch.trim() === '') add('default_branch', "can't be blank");
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export interface CreateProjectInput extends ProjectSettingsInput {
  name?: string;
  path?: string;
}

/**
 * Creates a project in `namespace` on behalf of `creator` (permission to create there is the
 * caller's check). `limitFor` is the owner whose `projects_limit` applies to a personal namespace.
 */
export async function createProject(
  creator: User,
  namespace: Namespace,
  input: CreateProjectInput,
  options: { limitFor?: User; forkOf?: Project } = {},
): Promise<Project> {
  const name = input.name ?? input.path ?? '';
  const path = input.path ?? pathFromName(name);
  validate(name, path, input);
  const now = new Date().toISOString();
  const project: Project = {
    ...applySettings(DEFAULT_SETTINGS, input),
    id: await nextId('projects'),
    name,
    path,
    namespaceId: namespace.id,
    creatorId: creator.id,
    archived: false,
    forkedFromId: options.forkOf?.id ?? null,
    runnersTokenSealed: await sealSecret(`GR1348941${randomBytes(15).toString('base64url')}`),
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
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: projectToItem(project), ConditionExpression: 'attribute_not_exists(PK)' } },
      putClaim(namespaceKeys.claims.projectPath(namespace.id, path), { projectId: project.id, namespaceId: namespace.id }),
      // The namespace is live; a personal namespace counts its projects against the owner's limit.
      {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(namespace.id),
          UpdateExpression: 'ADD projectCount :one',
          // ...and still at the full path read (a group rename moves its descendants' paths).
          ConditionExpression:
            'attribute_exists(PK) AND attribute_not_exists(deleting) AND attribute_not_exists(movingFrom) AND fullPath = :fullPath' +
            (limit !== undefined ? ' AND (attribute_not_exists(projectCount) OR projectCount < :limit)' : ''),
          ExpressionAttributeValues: { ':one': 1, ':fullPath': namespace.fullPath, ...(limit !== undefined ? { ':limit': limit } : {}) },
        },
      },
      // A subgroup with the same full path would make the path ambiguous.
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: namespaceKeys.claims.namespacePath(`${namespace.fullPath}/${path}`),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...(options.forkOf ? [projectCounterUpdate(options.forkOf.id, 'forksCount', 1)] : []),
      putClaim(projectKeys.claims.projectName(namespace.id, name), { projectId: project.id, namespaceId: namespace.id }),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const nameTaken = error.failed.includes(options.forkOf ? 5 : 4);
    if (error.failed.includes(1) || error.failed.includes(3) || nameTaken) {
      const taken = {
        ...(nameTaken || error.failed.includes(1) ? { name: ['has already been taken'] } : {}),
        ...(error.failed.includes(1) || error.failed.includes(3) ? { path: ['has already been taken'] } : {}),
      };
      if (options.forkOf) throw new ApiError(409, { message: taken });
      throw new ValidationError(taken);
    }
    if (error.failed.includes(2)) {
      // Which part of the namespace condition failed: read the namespace as it is now.
      const [item] = await getMany([namespaceKeys.namespace(namespace.id)]);
      if (!item || item.deleting) throw new NotFoundError('Namespace');
      if (item.movingFrom || item.fullPath !== namespace.fullPath) throw new ConflictError('The namespace is being moved; try again');
      throw new ValidationError({
        limit_reached: [`Your project limit is ${limit} projects! Please contact your administrator to increase it`],
      });
    }
    if (options.forkOf && error.failed.includes(4)) throw new NotFoundError('Project');
    throw error;
  }
  await recordEvent({ projectId: project.id, authorId: creator.id, actionName: 'created' });
  return project;
}

/** Edits a project's name, path and settings; moves the path and name claims when they change. */
export async function updateProject(subject: ProjectSubject, input: CreateProjectInput): Promise<Project> {
  const { project: previous, namespace } = subject;
  const name = input.name ?? previous.name;
  const path = input.path ?? previous.path;
  validate(name, path, input);
  const next: Project = { ...applySettings(previous, input), name, path, updatedAt: new Date().toISOString(), version: previous.version + 1 };
  const pathChanged = path.toLowerCase() !== previous.path.toLowerCase();
  const nameChanged = name !== previous.name;
  // Appended after the others, so the indexes of the path operations below stay put.
  const nameClaims = nameChanged
    ? [
        putClaim(projectKeys.claims.projectName(namespace.id, name), { projectId: previous.id, namespaceId: namespace.id }),
        { Delete: { TableName: tableName(), Key: projectKeys.claims.projectName(namespace.id, previous.name) } },
      ]
    : [];
  const operations = [

      ...(pathChanged ? [putClaim(namespaceKeys.claims.projectPath(namespace.id, path), { projectId: previous.id, namespaceId: namespace.id })] : []),
      {
        Put: {
          TableName: tableName(),
          Item: projectToItem(next),
          ConditionExpression: '#version = :version AND attribute_not_exists(deleting)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': previous.version },
        },
      },
      ...(pathChanged
        ? [
            { Delete: { TableName: tableName(), Key: namespaceKeys.claims.projectPath(namespace.id, previous.path) } },
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: namespaceKeys.claims.namespacePath(`${namespace.fullPath}/${path}`),
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: namespaceKeys.namespace(namespace.id),
                ConditionExpression: 'fullPath = :fullPath AND attribute_not_exists(movingFrom)',
                ExpressionAttributeValues: { ':fullPath': namespace.fullPath },
              },
            },
          ]
        : []),
  ];
  try {
    await transactWrite([...operations, ...nameClaims]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const pathTaken = pathChanged && (error.failed.includes(0) || error.failed.includes(3));
    const nameTaken = nameChanged && error.failed.includes(operations.length);
    if (pathTaken || nameTaken) {
      throw new ValidationError({ ...(nameTaken ? { name: ['has already been taken'] } : {}), ...(pathTaken ? { path: ['has already been taken'] } : {}) });
    }
    if (pathChanged && error.failed.includes(4)) throw new ConflictError('The namespace is being moved; try again');
    throw new ConflictError('The project was modified by another request; try again');
  }
  return next;
}

/** Sets `archived`; idempotent (archiving an archived project changes nothing). */
export async function setArchived(project: Project, archived: boolean): Promise<Project> {
  if (project.archived === archived) return project;
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: projectKeys.project(project.id),
      UpdateExpression: 'SET archived = :archived, updatedAt = :now ADD #version :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':archived': archived, ':now': new Date().toISOString(), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { ...project, ...(Attributes as Partial<Project>), archived };
}

/** Stars a project: 304 if the user already starred it; `star_count` moves in the same transaction. */
export async function starProject(project: Project, user: User): Promise<Project> {
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: { ...projectKeys.star(project.id, user.id), ...projectIndexKeys.userStar(user.id, project.id), type: 'Star', projectId: project.id, userId: user.id, createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      projectCounterUpdate(project.id, 'starCount', 1),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) throw new NotModifiedError();
    throw error;
  }
  return { ...project, starCount: project.starCount + 1 };
}

/** Unstars a project: 304 if the user had not starred it. */
export async function unstarProject(project: Project, user: User): Promise<Project> {
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: projectKeys.star(project.id, user.id), ConditionExpression: 'attribute_exists(PK)' } },
      projectCounterUpdate(project.id, 'starCount', -1),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) throw new NotModifiedError();
    throw error;
  }
  return { ...project, starCount: project.starCount - 1 };
}

/** Shares a project with a group (409 if it already is), capped at `groupAccess`. */
export async function shareProject(project: Project, group: Namespace, share: Omit<ProjectShare, 'groupId'>): Promise<ProjectShare> {
  const record: ProjectShare = { groupId: group.id, ...share };
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: { ...projectKeys.share(project.id, group.id), ...projectIndexKeys.groupShare(group.id, project.id), type: 'Share', projectId: project.id, ...record },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: projectKeys.project(project.id),
          UpdateExpression: 'SET sharedWith = list_append(if_not_exists(sharedWith, :empty), :share)',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
          ExpressionAttributeValues: { ':share': [record], ':empty': [] },
        },
      },
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(group.id),
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
        },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failed.includes(0)) throw new ConflictError('Group already shared with this group');
    throw new NotFoundError(error.failed.includes(2) ? 'Group' : 'Project');
  }
  return record;
}

/** Removes a project's share with a group; false if there was none. Retries when the list moved. */
export async function unshareProject(projectId: number, groupId: number): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const project = await getProject(projectId);
    const index = project?.sharedWith.findIndex((s) => s.groupId === groupId) ?? -1;
    if (!project || index < 0) {
      // The list may already be clean while the share item remains (a crash between): remove it.
      await db().send(new DeleteCommand({ TableName: tableName(), Key: projectKeys.share(projectId, groupId) }));
      return false;
    }
    try {
      await transactWrite([
        { Delete: { TableName: tableName(), Key: projectKeys.share(projectId, groupId) } },
        {
          Update: {
            TableName: tableName(),
            Key: projectKeys.project(projectId),
            UpdateExpression: `REMOVE sharedWith[${index}]`,
            ConditionExpression: `sharedWith[${index}].groupId = :groupId`,
            ExpressionAttributeValues: { ':groupId': groupId },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
    }
  }
  throw new ConflictError('The project was modified by other requests; try again');
}

/** Makes `project` a fork of `source` (admin): 409 if it already is a fork. */
export async function setForkRelation(project: Project, source: Project): Promise<Project> {
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: projectKeys.project(project.id),
          UpdateExpression: 'SET forkedFromId = :source',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(forkedFromId) OR forkedFromId = :null)',
          ExpressionAttributeValues: { ':source': source.id, ':null': null },
        },
      },
      projectCounterUpdate(source.id, 'forksCount', 1),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) throw new ConflictError('Project already forked');
    if (error instanceof TransactionConditionFailed) throw new NotFoundError('Project');
    throw error;
  }
  return { ...project, forkedFromId: source.id };
}

/** Removes the fork relation; 304 when the project is not a fork. */
export async function removeForkRelation(project: Project): Promise<void> {
  if (project.forkedFromId === null) throw new NotModifiedError();
  const sourceId = project.forkedFromId;
  const source = await getProject(sourceId);
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: projectKeys.project(project.id),
          UpdateExpression: 'SET forkedFromId = :null',
          ConditionExpression: 'forkedFromId = :source',
          ExpressionAttributeValues: { ':source': sourceId, ':null': null },
        },
      },
      ...(source ? [projectCounterUpdate(sourceId, 'forksCount', -1)] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) throw new NotModifiedError();
    throw error;
  }
}

const uploadsPrefix = (projectId: number) => `projects/${projectId}/`;

/** Keys deleted per round of {@link deleteMany} while a project's partition is read. */
const DELETE_BATCH = 100;

/**
 * Deletes a project with everything it owns: every item of its partition (members, stars,
 * shares, hooks, events, and later issues etc. — their index entries go with them), its S3
 * objects, its path claim, the fork count of its source, and finally the project item. Marked
 * `deleting` first, so it disappears from reads at once and a crash midway is finished by a retry.
 */
export async function deleteProject(project: Project): Promise<void> {
  await markProjectDeleting(project.id);
  let pending: Key[] = [];
  for await (const item of queryCollection(projectCollections.projectPartition(project.id))) {
    if (item.SK === 'PROJECT') continue;
    if (item.type === 'Share') {
      await unshareProject(project.id, Number(item.groupId));
      continue;
    }
    pending.push({ PK: item.PK, SK: item.SK });
    // Batched: a project with many issues and notes has many items.
    if (pending.length >= DELETE_BATCH) {
      await deleteMany(pending);
      pending = [];
    }
  }
  await deleteMany(pending);
  await deleteObjects(uploadsPrefix(project.id));
  try {
    await removeProjectItem(project);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return; // a concurrent deletion finished first
    throw error;
  }
  if (project.forkedFromId !== null) {
    // The source may be gone already: then there is nothing to count down.
    await ifConditionHolds(db().send(new UpdateCommand({ ...projectCounterUpdate(project.forkedFromId, 'forksCount', -1).Update })));
  }
}

/** The last step of a deletion, once: the item, its path and name claims and its namespace's project count. */
async function removeProjectItem(project: Project): Promise<void> {
  // Only count down a namespace that still exists (an ADD would recreate a deleted one).
  const namespaceLeft = (await getMany([namespaceKeys.namespace(project.namespaceId)])).length > 0;
  await transactWrite([
    { Delete: { TableName: tableName(), Key: projectKeys.project(project.id), ConditionExpression: 'attribute_exists(PK)' } },
    { Delete: { TableName: tableName(), Key: namespaceKeys.claims.projectPath(project.namespaceId, project.path) } },
    { Delete: { TableName: tableName(), Key: projectKeys.claims.projectName(project.namespaceId, project.name) } },
    ...(namespaceLeft
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: namespaceKeys.namespace(project.namespaceId),
              UpdateExpression: 'ADD projectCount :minus',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ]
      : []),
  ]);
}

/** Deletes every S3 object under a prefix, a page (up to 1000 keys) at a time. */
async function deleteObjects(prefix: string): Promise<void> {
  const bucket = config().bucketName;
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (objects.length > 0) await s3().send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

