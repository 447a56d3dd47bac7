/**
 * The Project entity: its item (indexed for the all-projects, per-visibility and per-namespace
 * lists) and its path claim, unique case-insensitively within the namespace. Counters shown in
 * responses (`star_count`, `forks_count`, `open_issues_count`) live on the item and change only
 * by atomic `ADD` inside the transaction that changes what they count.
 */
import { getItem, isId, type Item } from '../../platform/dynamo/query';
import { markDeleting } from '../../platform/dynamo/conditional';
import { projectIndexKeys, projectKeys } from './keys';
import { namespaceKeys, type Visibility } from '../../groups';
import { entityFields, isLive } from '../../platform/dynamo/items';
import { tableName } from '../../platform/dynamo/client';

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
}

export interface Project extends ProjectSettings {
  id: number;
  name: string;
  path: string;
  namespaceId: number;
  creatorId: number;
  archived: boolean;
  forkedFromId: number | null;
  /** The CI runner registration token, sealed (shared/auth/secret-box.ts): shown to maintainers. */
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
}


export function projectToItem(project: Project): Item {
  return {
    ...projectKeys.project(project.id),
    ...projectIndexKeys.projectList(project.id),
    ...projectIndexKeys.projectVisibility(project.visibility, project.id),
    ...projectIndexKeys.namespaceProjects(project.namespaceId, project.id),
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

/** A project by its path in a namespace, case-insensitively. */
export async function findProjectInNamespace(namespaceId: number, path: string): Promise<Project | undefined> {
  const claim = await getItem(namespaceKeys.claims.projectPath(namespaceId, path));
  return claim?.projectId ? getProject(Number(claim.projectId)) : undefined;
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

/** A condition that the project exists and is not being deleted. */
export const projectIsLive = (projectId: number) => isLive(projectKeys.project(projectId));

/** Marks a project as being deleted (again, when finishing an interrupted deletion); false if it does not exist. */
export async function markProjectDeleting(id: number): Promise<boolean> {
  return markDeleting(projectKeys.project(id));
}
