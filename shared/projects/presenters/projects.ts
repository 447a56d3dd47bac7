/**
 * The Project entity. Presenting a page of projects needs their namespaces, the owners of
 * personal namespaces, the groups they are shared with and the projects they were forked from:
 * {@link presentProjects} loads all of those in batches (a few BatchGetItem calls per page, not per
 * project) before serializing.
 */
import { can, featureAccessLevel, PROJECT_FEATURES, type ProjectFeature, type ProjectSubject } from '../../auth';
import { openSecret } from '../../platform/crypto/secret-box';
import { config } from '../../platform/config';
import { type Namespace, presentNamespace } from '../../namespaces';
import { avatarUrl, type User } from '../../users';
import { projectFullPath } from '../paths';
import { getNamespacesById, getUsersById } from '../store/lookups';
import { projectAvatar } from '../store/avatars';
import { ciSettingsOf, getProjects, type Project } from '../store/projects';

/** What presenting needs besides the projects themselves, loaded once per response. */
export interface ProjectContext {
  namespaces: Map<number, Namespace>;
  owners: Map<number, User>;
  forkSources: Map<number, { project: Project; namespace: Namespace; owner?: User }>;
  /** Opened runner tokens of the projects the viewer administers (project id → token). */
  runnersTokens: Map<number, string>;
}

export interface PresentOptions {
  /** `simple=true`: only id, names, paths and URLs. */
  simple?: boolean;
  /** `statistics=true`: the statistics object. */
  statistics?: boolean;
}

export const webUrlOf = (fullPath: string) => `${config().externalUrl}/${fullPath}`;

/** `Group / Subgroup` or the owner's name for a personal namespace (GitLab's human name). */
function humanName(namespace: Namespace, ctx: ProjectContext): string {
  if (namespace.kind === 'user') return ctx.owners.get(namespace.ownerId ?? 0)?.name ?? namespace.name;
  const names = [...namespace.ancestorIds].reverse().map((id) => ctx.namespaces.get(id)?.name ?? String(id));
  return [...names, namespace.name].join(' / ');
}

function basics(project: Project, namespace: Namespace, ctx: ProjectContext) {
  const pathWithNamespace = projectFullPath(namespace, project);
  return {
    id: project.id,
    description: project.description,
    default_branch: project.defaultBranch,
    tag_list: project.tagList,
    topics: project.tagList,
    ssh_url_to_repo: `git@${config().sshHost}:${pathWithNamespace}.git`,
    http_url_to_repo: `${webUrlOf(pathWithNamespace)}.git`,
    web_url: webUrlOf(pathWithNamespace),
    name: project.name,
    name_with_namespace: `${humanName(namespace, ctx)} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
    star_count: project.starCount,
    forks_count: project.forksCount,
    created_at: project.createdAt,
    last_activity_at: project.lastActivityAt,
  };
}

function presentOne(subject: ProjectSubject, ctx: ProjectContext, viewer: User | null, options: PresentOptions) {
  const { project, namespace, access } = subject;
  const base = basics(project, namespace, ctx);
  if (options.simple) {
    const { id, name, name_with_namespace, path, path_with_namespace, ssh_url_to_repo, http_url_to_repo, web_url, created_at } = base;
    return { id, name, name_with_namespace, path, path_with_namespace, ssh_url_to_repo, http_url_to_repo, web_url, created_at };
  }
  const owner = namespace.kind === 'user' ? ctx.owners.get(namespace.ownerId ?? 0) : undefined;
  const fork = project.forkedFromId !== null ? ctx.forkSources.get(project.forkedFromId) : undefined;
  return {
    ...base,
    visibility: project.visibility,
    ...(owner ? { owner: { id: owner.id, name: owner.name, created_at: owner.createdAt } } : {}),
    issues_enabled: project.issuesEnabled,
    open_issues_count: project.openIssuesCount,
    merge_requests_enabled: project.mergeRequestsEnabled,
    jobs_enabled: project.jobsEnabled,
    wiki_enabled: project.wikiEnabled,
    snippets_enabled: project.snippetsEnabled,
    container_registry_enabled: project.containerRegistryEnabled,
    ...featureAccessLevels(project),
    shared_runners_enabled: project.sharedRunnersEnabled,
    lfs_enabled: project.lfsEnabled,
    creator_id: project.creatorId,
    namespace: presentNamespace(namespace),
    import_status: 'none',
    archived: project.archived,
    avatar_url: avatarUrl('project', project.id, projectAvatar(project)),
    public_jobs: project.publicJobs,
    ...(ctx.runnersTokens.has(project.id) ? { runners_token: ctx.runnersTokens.get(project.id) } : {}),
    ...(can(viewer, 'download_code', subject) ? { ci_config_path: ciSettingsOf(project).ciConfigPath } : {}),
    ...(can(viewer, 'admin_project', subject) ? presentCiSettings(project) : {}),
    shared_with_groups: project.sharedWith.map((share) => ({
      group_id: share.groupId,
      group_name: ctx.namespaces.get(share.groupId)?.name ?? null,
      group_full_path: ctx.namespaces.get(share.groupId)?.fullPath ?? null,
      group_access_level: share.groupAccess,
      expires_at: share.expiresAt,
    })),
    only_allow_merge_if_pipeline_succeeds: project.onlyAllowMergeIfPipelineSucceeds,
    only_allow_merge_if_all_discussions_are_resolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
    request_access_enabled: project.requestAccessEnabled,
    ...(fork ? { forked_from_project: basics(fork.project, fork.namespace, ctx) } : {}),
    ...(viewer
      ? {
          permissions: {
            project_access: access.projectAccess === null ? null : { access_level: access.projectAccess, notification_level: 3 },
            group_access: access.groupAccess === null ? null : { access_level: access.groupAccess, notification_level: 3 },
          },
        }
      : {}),
    ...(options.statistics
      ? {
          statistics: {
            commit_count: 0,
            storage_size: project.repositorySize ?? 0,
            repository_size: project.repositorySize ?? 0,
            lfs_objects_size: 0,
            job_artifacts_size: 0,
          },
        }
      : {}),
  };
}

/** The features' access levels (`issues_access_level`, …), and the repository's (always on here). */
function featureAccessLevels(project: Project) {
  const levels = Object.fromEntries((Object.keys(PROJECT_FEATURES) as ProjectFeature[]).map((feature) => [`${feature}_access_level`, featureAccessLevel(project, feature)]));
  return { ...levels, repository_access_level: 'enabled' };
}

/** The CI/CD settings GitLab shows those who administer the project. */
function presentCiSettings(project: Project) {
  const settings = ciSettingsOf(project);
  return {
    ci_default_git_depth: settings.ciDefaultGitDepth,
    ci_forward_deployment_enabled: settings.ciForwardDeploymentEnabled,
    build_git_strategy: settings.buildGitStrategy,
    keep_latest_artifact: settings.keepLatestArtifact,
    auto_cancel_pending_pipelines: settings.autoCancelPendingPipelines,
    build_timeout: settings.buildTimeout,
    group_runners_enabled: settings.groupRunnersEnabled,
  };
}

/**
 * Internal: runner registration tokens opened recently, by sealed value (a new token is a new
 * sealed value), so that showing a project to its maintainers does not decrypt it on every
 * request. At most {@link OPENED_TOKENS_KEPT}, the oldest dropped first.
 */
const openedTokens = new Map<string, Promise<string>>();
const OPENED_TOKENS_KEPT = 256;

function openRunnersToken(sealed: string): Promise<string> {
  const kept = openedTokens.get(sealed);
  if (kept) return kept;
  const opening = openSecret(sealed);
  opening.catch(() => openedTokens.delete(sealed));
  if (openedTokens.size >= OPENED_TOKENS_KEPT) openedTokens.delete(openedTokens.keys().next().value!);
  openedTokens.set(sealed, opening);
  return opening;
}

/** Loads everything the given projects' presentation refers to, in batches. */
export async function loadProjectContext(subjects: ProjectSubject[], viewer: User | null = null): Promise<ProjectContext> {
  const namespaces = new Map<number, Namespace>();
  for (const s of subjects) namespaces.set(s.namespace.id, s.namespace);
  const forkIds = [...new Set(subjects.flatMap((s) => (s.project.forkedFromId !== null ? [s.project.forkedFromId] : [])))];
  const forkProjects = await getProjects(forkIds);

  const wantedNamespaces = new Set<number>();
  for (const s of subjects) {
    s.namespace.ancestorIds.forEach((id) => wantedNamespaces.add(id));
    s.project.sharedWith.forEach((share) => wantedNamespaces.add(share.groupId));
  }
  forkProjects.forEach((p) => wantedNamespaces.add(p.namespaceId));
  const missing = [...wantedNamespaces].filter((id) => !namespaces.has(id));
  for (const namespace of await getNamespacesById(missing)) namespaces.set(namespace.id, namespace);
  // Ancestors of fork sources' namespaces, for their human names.
  const moreAncestors = forkProjects
    .flatMap((p) => namespaces.get(p.namespaceId)?.ancestorIds ?? [])
    .filter((id) => !namespaces.has(id));
  for (const namespace of await getNamespacesById(moreAncestors)) namespaces.set(namespace.id, namespace);

  // The viewer, when an owner, is not read again (e.g. anyone showing their own projects).
  const ownerIds = [...namespaces.values()].flatMap((n) => (n.kind === 'user' && n.ownerId !== null ? [n.ownerId] : []));
  const owners = new Map<number, User>(viewer && ownerIds.includes(viewer.id) ? [[viewer.id, viewer]] : []);
  for (const user of await getUsersById([...new Set(ownerIds)].filter((id) => !owners.has(id)))) owners.set(user.id, user);
  const forkSources = new Map(
    forkProjects.flatMap((project) => {
      const namespace = namespaces.get(project.namespaceId);
      return namespace ? [[project.id, { project, namespace }] as const] : [];
    }),
  );
  // A secret: only for those who may administer the project (GitLab shows it to maintainers).
  const runnersTokens = new Map(
    await Promise.all(
      subjects
        .filter((s) => s.project.runnersTokenSealed && can(viewer, 'admin_project', s))
        .map(async (s) => [s.project.id, await openRunnersToken(s.project.runnersTokenSealed!)] as const),
    ),
  );
  return { namespaces, owners, forkSources, runnersTokens };
}

/** Presents projects as GitLab's Project entity (`permissions` for signed-in viewers). */
export async function presentProjects(subjects: ProjectSubject[], viewer: User | null, options: PresentOptions = {}) {
  const ctx = await loadProjectContext(subjects, viewer);
  return subjects.map((subject) => presentOne(subject, ctx, viewer, options));
}

export async function presentProject(subject: ProjectSubject, viewer: User | null, options: PresentOptions = {}) {
  return (await presentProjects([subject], viewer, options))[0];
}
