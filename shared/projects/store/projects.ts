/**
 * The Project entity: its item (indexed for the all-projects, per-visibility and per-namespace
 * lists), its path claim (unique case-insensitively within the namespace) and its name claim
 * (case-sensitive). Counters shown in responses (`star_count`, `forks_count`,
 * `open_issues_count`) live on the item and change only by atomic `ADD` inside the transaction
 * that changes what they count. Every write here is one transaction, so concurrent requests
 * cannot break a claim, a counter or `projects_limit`; failures come back as results, named after
 * the transaction entry whose condition failed.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds, markDeleting } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, isLive, putClaim } from '../../platform/dynamo/items';
import { getItem, isId, queryCollection, type Item } from '../../platform/dynamo/query';
import { ConditionFailed, transact, transactOr } from '../../platform/dynamo/transactions';
import { dropLegacyRedirectAt, dropRedirectAt, dropRedirectsBeneath, namespaceKeys, putSearchEntries, redirectFrom, removeSearchEntries, type Namespace, type Visibility } from '../../namespaces';
import type { Key } from '../../platform/dynamo/keys';
import type { ProjectFeature } from '../../auth';
import { searchTerms, termChanges } from '../../platform/search';
import { projectFullPath } from '../paths';
import { projectCollections, projectIndexKeys, projectKeys, projectSearchKeys } from './keys';
import { topicCountUpdate } from './topics';
import { eachInIdOrder, type MigrationStep } from '../../platform/dynamo/migrations';

export interface ProjectShare {
  groupId: number;
  groupAccess: number;
  expiresAt: string | null;
}

export interface ProjectSettings {
  description: string | null;
  defaultBranch: string;
  visibility: Visibility;
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
  jobsEnabled: boolean;
  wikiEnabled: boolean;
  snippetsEnabled: boolean;
  containerRegistryEnabled: boolean;
  sharedRunnersEnabled: boolean;
  publicJobs: boolean;
  onlyAllowMergeIfPipelineSucceeds: boolean;
  onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
  lfsEnabled: boolean;
  requestAccessEnabled: boolean;
  importUrl: string | null;
  tagList: string[];
  /**
   * CI/CD settings (GitLab's `ci_cd_settings` and the project's build columns). Optional: a
   * project stored before they existed has GitLab's defaults ({@link ciSettingsOf}).
   */
  ciConfigPath?: string | null;
  buildTimeout?: number;
  ciDefaultGitDepth?: number | null;
  buildGitStrategy?: 'fetch' | 'clone';
  autoCancelPendingPipelines?: 'enabled' | 'disabled';
  keepLatestArtifact?: boolean;
  ciForwardDeploymentEnabled?: boolean;
  /** Whether its groups' runners take its jobs (GitLab's `group_runners_enabled`; absent: true). */
  groupRunnersEnabled?: boolean;
  /**
   * Features open to project members only (GitLab's `*_access_level` `private`); a feature not
   * listed is open to everyone who reads the project while its `…Enabled` flag is on.
   */
  membersOnlyFeatures?: ProjectFeature[];
}

/** A project's CI/CD settings, GitLab's defaults for those it was stored without. */
export function ciSettingsOf(project: ProjectSettings) {
  return {
    ciConfigPath: project.ciConfigPath ?? null,
    buildTimeout: project.buildTimeout ?? 3600,
    ciDefaultGitDepth: project.ciDefaultGitDepth === undefined ? 20 : project.ciDefaultGitDepth,
    buildGitStrategy: project.buildGitStrategy ?? 'fetch',
    autoCancelPendingPipelines: project.autoCancelPendingPipelines ?? 'enabled',
    keepLatestArtifact: project.keepLatestArtifact ?? true,
    ciForwardDeploymentEnabled: project.ciForwardDeploymentEnabled ?? true,
    groupRunnersEnabled: project.groupRunnersEnabled ?? true,
  } as const;
}

export interface Project extends ProjectSettings {
  id: number;
  name: string;
  path: string;
  namespaceId: number;
  creatorId: number;
  archived: boolean;
  forkedFromId: number | null;
  /** The CI runner registration token, sealed (the platform's secret box): shown to maintainers. */
  runnersTokenSealed?: string;
  sharedWith: ProjectShare[];
  starCount: number;
  forksCount: number;
  openIssuesCount: number;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  version: number;
  deleting?: boolean;
  /** Bytes of the packs the repository's object pool holds (shared with forks), kept by the repository. */
  repositorySize?: number;
  /**
   * The topics the project counts in (`totalProjectsCount`), beside their names in `tagList`:
   * written with the counts in one transaction. Absent on a project stored before topics were
   * items (its `tagList` counts nowhere).
   */
  topicIds?: number[];
}

export function projectToItem(project: Project): Item {
  return {
    ...projectKeys.project(project.id),
    ...projectIndexKeys.projectList(project.id),
    ...projectIndexKeys.projectVisibility(project.visibility, project.id),
    ...projectIndexKeys.namespaceProjects(project.namespaceId, project.id),
    ...(project.forkedFromId ? projectIndexKeys.projectFork(project.forkedFromId, project.id) : {}),
    type: 'Project',
    ...project,
  };
}

export const projectFromItem = (item: Item): Project => entityFields(item) as Project;

export async function getProject(id: number): Promise<Project | undefined> {
  if (!isId(id)) return undefined;
  const item = await getItem(projectKeys.project(id));
  return item && !item.deleting ? projectFromItem(item) : undefined;
}

/** A project by id, read consistently, including one being deleted. */
export async function readProjectRecord(id: number): Promise<Project | undefined> {
  if (!isId(id)) return undefined;
  const item = await getItem(projectKeys.project(id));
  return item ? projectFromItem(item) : undefined;
}

/** Projects by id (one BatchGetItem per 100, consistent); missing ones and those being deleted are left out. */
export async function getProjects(ids: number[]): Promise<Project[]> {
  return (await getMany(ids.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((project) => !project.deleting);
}

/** A project by its path in a namespace, case-insensitively. */
export async function findProjectInNamespace(namespaceId: number, path: string): Promise<Project | undefined> {
  const claim = await getItem(namespaceKeys.claims.projectPath(namespaceId, path));
  return claim?.projectId ? getProject(Number(claim.projectId)) : undefined;
}

/**
 * The project a runners registration token belongs to (its lookup, by the token's digest), or
 * undefined. The lookup says where to look; the caller compares the token with the project's own.
 */
export async function projectIdForRunnersToken(token: string): Promise<number | undefined> {
  if (!token) return undefined;
  const item = await getItem(projectKeys.runnersToken(token));
  return item ? Number(item.projectId) : undefined;
}

/** Adds `delta` to a counter attribute of a project (stars, forks, open issues), atomically. */
export const projectCounterUpdate = (projectId: number, counter: 'starCount' | 'forksCount' | 'openIssuesCount', delta: number) => ({
  Update: {
    TableName: tableName(),
    Key: projectKeys.project(projectId),
    UpdateExpression: 'ADD #counter :delta',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#counter': counter },
    ExpressionAttributeValues: { ':delta': delta },
  },
});

/**
 * The topic count updates of a project's topics changing from `before` to `after`: `+1` in each
 * topic added, `-1` in each removed, but for the topics `uncounted` (deleted since: nothing to
 * count down).
 */
export function topicCountChanges(before: readonly number[], after: readonly number[], uncounted: readonly number[] = []) {
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id) && !uncounted.includes(id));
  return [...added.map((id) => topicCountUpdate(id, 1)), ...removed.map((id) => topicCountUpdate(id, -1))];
}

/** A condition that the project exists and is not being deleted. */
export const projectIsLive = (projectId: number) => isLive(projectKeys.project(projectId));

// ---------------------------------------------------------------------------------------------
// Create and edit
// ---------------------------------------------------------------------------------------------

/**
 * The uniqueness conditions of a project write that failed: its path claim, the full path of a
 * subgroup that would shadow it (`subgroup_path`), its name claim.
 */
export type ProjectClaim = 'path' | 'subgroup_path' | 'name';

// ---------------------------------------------------------------------------------------------
// Search entries (the namespaces feature's `search-index.ts`): a project is found by its name,
// path and description (GitLab's `Project.search`). Added before the project's write, removed
// after it, so they are a superset of the truth.
// ---------------------------------------------------------------------------------------------

type ProjectTexts = Pick<Project, 'name' | 'path' | 'description'>;

const projectSearchTerms = (project: ProjectTexts): string[] => searchTerms(project.name, project.path, project.description);

const searchEntryKeys = (terms: string[], projectId: number): Key[] => terms.map((term) => projectSearchKeys.entry(term, projectId));

/** Every search entry key of a project as it is (removed with the project). */
export const projectSearchEntryKeys = (project: Project): Key[] => searchEntryKeys(projectSearchTerms(project), project.id);

/** Writes every search entry of a project (idempotent): the backfill of projects written before search entries existed. */
export async function writeProjectSearchEntries(project: Project): Promise<void> {
  await putSearchEntries(projectSearchEntryKeys(project), { projectId: project.id }, project.version);
}

/** Every live project in id order (the all-projects index, a Query page at a time), those after `after` only. */
async function* liveProjects(after?: number): AsyncGenerator<Project> {
  for await (const item of queryCollection(projectCollections.projects(after))) {
    const project = projectFromItem(item);
    if (!project.deleting) yield project;
  }
}

/** The ids of every live project in id order, those after `after` only: for data migrations. */
export async function* allProjectIds(after?: number): AsyncGenerator<number> {
  for await (const project of liveProjects(after)) yield project.id;
}

/**
 * The data migration that writes every search entry of every project (idempotent), for projects
 * written before search entries existed: resumable, a checkpoint after each project.
 */
export const backfillProjectSearchEntries: MigrationStep = eachInIdOrder(
  liveProjects,
  (project) => project.id,
  async (project) => {
    await writeProjectSearchEntries(project);
    return 1;
  },
);

export type InsertProjectResult =
  | 'created'
  | { taken: ProjectClaim[] }
  /** The namespace is gone or being deleted. */
  | 'namespace_gone'
  /** The namespace is being moved, or no longer at the full path read. */
  | 'namespace_moving'
  /** The personal namespace already holds `limit` projects. */
  | 'limit_reached'
  /** The project forked from is gone. */
  | 'fork_source_gone'
  /** A topic the project was to count in was deleted meanwhile (resolve its topics again). */
  | 'topic_gone';

/** The claims whose conditions failed, if any. */
function takenClaims(error: ConditionFailed): { taken: ProjectClaim[] } | undefined {
  const taken = (['path', 'subgroup_path', 'name'] as const).filter((claim) => error.failedOn(claim));
  return taken.length > 0 ? { taken } : undefined;
}

/** The project's path is not also the full path of a subgroup of its namespace (that would make it ambiguous). */
const noSubgroupAt = (namespace: Namespace, project: Project) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: namespaceKeys.claims.namespacePath(projectFullPath(namespace, project)),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

const pathClaim = (project: Project, namespace: Namespace) =>
  putClaim(namespaceKeys.claims.projectPath(namespace.id, project.path), { projectId: project.id, namespaceId: namespace.id });

const nameClaim = (project: Project, namespace: Namespace) =>
  putClaim(projectKeys.claims.projectName(namespace.id, project.name), { projectId: project.id, namespaceId: namespace.id });

/** A new project's id, from the `projects` sequence. */
export const newProjectId = (): Promise<number> => nextId('projects');

/** The lookup from a runners registration token to its project (under the token's digest). */
const runnersTokenLookup = (token: string, projectId: number) => ({
  Put: { TableName: tableName(), Item: { ...projectKeys.runnersToken(token), type: 'RunnersToken', projectId }, ConditionExpression: 'attribute_not_exists(PK)' },
});

/**
 * Writes a new project with its path and name claims, counting it in its namespace's
 * `projectCount` (against `limit` when given: a personal namespace's `projects_limit`) and, for a
 * fork, in its source's `forks_count`. `runnersToken` (the plaintext of the project's sealed
 * runners token) gets its lookup in the same transaction, so a runner can register at once.
 */
export async function insertProject(
  project: Project,
  namespace: Namespace,
  options: { limit?: number; forkOfId?: number; runnersToken?: string } = {},
): Promise<InsertProjectResult> {
  await writeProjectSearchEntries(project);
  const result = await insertProjectItem(project, namespace, options);
  // A new id that was not written: nobody else writes its entries.
  if (result !== 'created') await removeSearchEntries(projectSearchEntryKeys(project));
  return result;
}

async function insertProjectItem(
  project: Project,
  namespace: Namespace,
  options: { limit?: number; forkOfId?: number; runnersToken?: string },
): Promise<InsertProjectResult> {
  const { limit, forkOfId, runnersToken } = options;
  try {
    await transact({
      project: { Put: { TableName: tableName(), Item: projectToItem(project), ConditionExpression: 'attribute_not_exists(PK)' } },
      path: pathClaim(project, namespace),
      redirect: dropRedirectAt(projectFullPath(namespace, project)),
      // The namespace is live; a personal namespace counts its projects against the owner's limit.
      namespace: {
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
      subgroup_path: noSubgroupAt(namespace, project),
      fork_source: forkOfId !== undefined && projectCounterUpdate(forkOfId, 'forksCount', 1),
      name: nameClaim(project, namespace),
      runners_token: runnersToken !== undefined && runnersTokenLookup(runnersToken, project.id),
      legacyRedirect: dropLegacyRedirectAt(projectFullPath(namespace, project)),
      topics: (project.topicIds ?? []).map((id) => topicCountUpdate(id, 1)),
    });
    await dropRedirectsBeneath(projectFullPath(namespace, project));
    return 'created';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const taken = takenClaims(error);
    if (taken) return taken;
    if (error.failedOn('namespace')) return namespaceFailure(namespace);
    if (error.failedOn('fork_source')) return 'fork_source_gone';
    if (error.failedOn('topics')) return 'topic_gone';
    throw error;
  }
}

/** Which part of the namespace's condition failed: read the namespace as it is now. */
async function namespaceFailure(namespace: Namespace): Promise<'namespace_gone' | 'namespace_moving' | 'limit_reached'> {
  const [item] = await getMany([namespaceKeys.namespace(namespace.id)]);
  if (!item || item.deleting) return 'namespace_gone';
  if (item.movingFrom || item.fullPath !== namespace.fullPath) return 'namespace_moving';
  return 'limit_reached';
}

export type ReplaceProjectResult =
  | 'updated'
  | { taken: ProjectClaim[] }
  /** The path changed while the namespace is being moved, or no longer at the full path read. */
  | 'namespace_moving'
  /** Another request changed the project since it was read (or it is being deleted). */
  | 'project_changed'
  /** A topic the project was to count in (or out of) was deleted meanwhile (resolve its topics again). */
  | 'topic_gone';

/**
 * Replaces a project's item with `next`, conditioned on the version read; moves the path claim
 * (case-insensitively) and the name claim (case-sensitively) when they change.
 */
export async function replaceProject(previous: Project, next: Project, namespace: Namespace, options: { uncountedTopicIds?: readonly number[] } = {}): Promise<ReplaceProjectResult> {
  const topics = topicCountChanges(previous.topicIds ?? [], next.topicIds ?? [], options.uncountedTopicIds ?? []);
  const pathChanged = next.path.toLowerCase() !== previous.path.toLowerCase();
  const nameChanged = next.name !== previous.name;
  const { added, removed } = termChanges(projectSearchTerms(previous), projectSearchTerms(next));
  await putSearchEntries(searchEntryKeys(added, next.id), { projectId: next.id }, next.version);
  try {
    await transact({
      path: pathChanged && pathClaim(next, namespace),
      project: {
        Put: {
          TableName: tableName(),
          Item: projectToItem(next),
          ConditionExpression: '#version = :version AND attribute_not_exists(deleting)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': previous.version },
        },
      },
      previous_path: pathChanged && { Delete: { TableName: tableName(), Key: namespaceKeys.claims.projectPath(namespace.id, previous.path) } },
      // GitLab's redirect route: the old full path still finds the project until taken.
      redirect: pathChanged && redirectFrom(projectFullPath(namespace, previous), { kind: 'project', id: previous.id }),
      taken_redirect: pathChanged && dropRedirectAt(projectFullPath(namespace, next)),
      subgroup_path: pathChanged && noSubgroupAt(namespace, next),
      namespace: pathChanged && {
        ConditionCheck: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(namespace.id),
          ConditionExpression: 'fullPath = :fullPath AND attribute_not_exists(movingFrom)',
          ExpressionAttributeValues: { ':fullPath': namespace.fullPath },
        },
      },
      name: nameChanged && nameClaim(next, namespace),
      previous_name: nameChanged && { Delete: { TableName: tableName(), Key: projectKeys.claims.projectName(namespace.id, previous.name) } },
      legacyRedirect: pathChanged && dropLegacyRedirectAt(projectFullPath(namespace, next)),
      topics,
    });
    await removeSearchEntries(searchEntryKeys(removed, next.id), next.version);
    if (pathChanged) await dropRedirectsBeneath(projectFullPath(namespace, next));
    return 'updated';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const taken = takenClaims(error);
    if (taken) return taken;
    if (error.failedOn('namespace')) return 'namespace_moving';
    if (error.failedOn('topics') && !error.failedOn('project')) return 'topic_gone';
    return 'project_changed';
  }
}

export type TransferProjectResult =
  | 'transferred'
  | { taken: ProjectClaim[] }
  | 'namespace_gone'
  | 'namespace_moving'
  /** Another request changed the project since it was read (or it is being deleted). */
  | 'project_changed';

/**
 * Moves a project from `from` to `to` (`next`: the project as it will be, its `namespaceId` and
 * visibility set): the project item (its namespace and visibility index entries) conditioned on
 * the version read, its path and name claims moved to the new namespace, no subgroup of `to` at
 * its path, and both namespaces' `projectCount`s (`to` live, not moving, at the full path read),
 * in one transaction: a concurrent create of the same path in `to` and this transfer cannot both succeed.
 */
export async function transferProjectRecord(previous: Project, next: Project, from: Namespace, to: Namespace): Promise<TransferProjectResult> {
  try {
    await transact({
      project: {
        Put: {
          TableName: tableName(),
          Item: projectToItem(next),
          ConditionExpression: '#version = :version AND attribute_not_exists(deleting) AND namespaceId = :from',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': previous.version, ':from': from.id },
        },
      },
      path: pathClaim(next, to),
      previous_path: {
        Delete: {
          TableName: tableName(),
          Key: namespaceKeys.claims.projectPath(from.id, previous.path),
          ConditionExpression: 'attribute_not_exists(PK) OR projectId = :id',
          ExpressionAttributeValues: { ':id': previous.id },
        },
      },
      subgroup_path: noSubgroupAt(to, next),
      redirect: redirectFrom(projectFullPath(from, previous), { kind: 'project', id: previous.id }),
      taken_redirect: dropRedirectAt(projectFullPath(to, next)),
      name: nameClaim(next, to),
      previous_name: { Delete: { TableName: tableName(), Key: projectKeys.claims.projectName(from.id, previous.name) } },
      namespace: {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(to.id),
          UpdateExpression: 'ADD projectCount :one',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting) AND attribute_not_exists(movingFrom) AND fullPath = :fullPath',
          ExpressionAttributeValues: { ':one': 1, ':fullPath': to.fullPath },
        },
      },
      previous_namespace: {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(from.id),
          UpdateExpression: 'ADD projectCount :minusOne',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
      legacyRedirect: dropLegacyRedirectAt(projectFullPath(to, next)),
    });
    await dropRedirectsBeneath(projectFullPath(to, next));
    return 'transferred';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const taken = takenClaims(error);
    if (taken) return taken;
    if (error.failedOn('namespace')) {
      const failure = await namespaceFailure(to);
      return failure === 'limit_reached' ? 'namespace_moving' : failure;
    }
    return 'project_changed';
  }
}

/** Sets `archived` (and `updatedAt`, a new version); the project as written. */
export async function updateArchived(projectId: number, archived: boolean): Promise<Project> {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: projectKeys.project(projectId),
      UpdateExpression: 'SET archived = :archived, updatedAt = :now ADD #version :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':archived': archived, ':now': new Date().toISOString(), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return projectFromItem(Attributes ?? {});
}

/**
 * After a push: `lastActivityAt` is now, and the default branch is `defaultBranch` when the push
 * chose one (the first branch pushed to an empty repository; a new version then, as an edit). A
 * project deleted meanwhile is left alone.
 */
export async function recordPushActivity(projectId: number, defaultBranch?: string): Promise<void> {
  const now = new Date().toISOString();
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKeys.project(projectId),
        UpdateExpression: defaultBranch ? 'SET lastActivityAt = :now, defaultBranch = :branch ADD #version :one' : 'SET lastActivityAt = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ...(defaultBranch ? { ExpressionAttributeNames: { '#version': 'version' } } : {}),
        ExpressionAttributeValues: { ':now': now, ...(defaultBranch ? { ':branch': defaultBranch, ':one': 1 } : {}) },
      }),
    ),
  );
}

/** Records the repository's size (after a push or housekeeping); a project deleted meanwhile is left alone. */
export async function recordRepositorySize(projectId: number, bytes: number): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKeys.project(projectId),
        UpdateExpression: 'SET repositorySize = :bytes',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':bytes': bytes },
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Fork relations
// ---------------------------------------------------------------------------------------------

/**
 * Sets (`link`) or clears the project's `forkedFromId` and its entry in the source's forks index,
 * conditioned on its being unset or `sourceId`.
 */
const forkRelationUpdate = (projectId: number, sourceId: number, link: boolean) => {
  const index = projectIndexKeys.projectFork(sourceId, projectId);
  return {
    Update: {
      TableName: tableName(),
      Key: projectKeys.project(projectId),
      UpdateExpression: link ? 'SET forkedFromId = :source, GSI4PK = :pk, GSI4SK = :sk' : 'SET forkedFromId = :null REMOVE GSI4PK, GSI4SK',
      ConditionExpression: link ? 'attribute_exists(PK) AND (attribute_not_exists(forkedFromId) OR forkedFromId = :null)' : 'forkedFromId = :source',
      ExpressionAttributeValues: link ? { ':source': sourceId, ':null': null, ':pk': index.GSI4PK, ':sk': index.GSI4SK } : { ':source': sourceId, ':null': null },
    },
  };
};

/** Makes a project a fork of `sourceId`, counting it in the source's `forks_count`. */
export async function linkFork(projectId: number, sourceId: number): Promise<'linked' | 'already_forked' | 'source_gone'> {
  const entries = { project: forkRelationUpdate(projectId, sourceId, true), source: projectCounterUpdate(sourceId, 'forksCount', 1) };
  return (await transactOr(entries, [['project', 'already_forked' as const]], 'source_gone' as const)) ?? 'linked';
}

/** Removes a project's fork relation to `sourceId`; counts it out of the source unless the source is gone (`sourceLeft` false). */
export async function unlinkFork(projectId: number, sourceId: number, sourceLeft: boolean): Promise<'unlinked' | 'not_forked'> {
  const entries = { project: forkRelationUpdate(projectId, sourceId, false), source: sourceLeft && projectCounterUpdate(sourceId, 'forksCount', -1) };
  return (await transactOr(entries, [['project', 'not_forked' as const]])) ?? 'unlinked';
}

/** Marks a project as being deleted (again, when finishing an interrupted deletion); false if it does not exist. */
export async function markProjectDeleting(id: number): Promise<boolean> {
  return markDeleting(projectKeys.project(id));
}
