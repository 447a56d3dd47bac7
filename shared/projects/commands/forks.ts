/** Forks: a new project counted in its source's `forks_count`, and fork relations set or removed by admins. */
import type { Namespace } from '../../namespaces';
import type { User } from '../../users';
import { ConflictError, NotFoundError, NotModifiedError } from '../../platform/http/errors';
import { getProject, linkFork, unlinkFork, type Project } from '../store/projects';
import { runForkSteps } from './lifecycle';
import { insertNewProject } from './projects';

/** What a fork may change of its source. */
export interface ForkOverrides {
  name?: string;
  path?: string;
  description?: string;
}

/**
 * Forks `source` into `target` (whose use the caller is allowed): the source's name, path,
 * description, visibility, default branch and topics unless overridden. The caller's own
 * `projects_limit` applies in their personal namespace; 409 when the name or path is taken.
 */
export async function forkProject(user: User, source: Project, target: Namespace, overrides: ForkOverrides): Promise<Project> {
  const fork = await insertNewProject(
    user,
    target,
    {
      name: overrides.name ?? source.name,
      path: overrides.path ?? source.path,
      description: overrides.description ?? source.description ?? undefined,
      visibility: source.visibility,
      default_branch: source.defaultBranch,
      tag_list: source.tagList,
    },
    { forkOf: source, limitFor: target.kind === 'user' && target.ownerId === user.id ? user : undefined },
  );
  await runForkSteps(fork, source);
  return fork;
}

/** Makes `project` a fork of `source` (admin): 409 if it already is a fork. */
export async function setForkRelation(project: Project, source: Project): Promise<Project> {
  const result = await linkFork(project.id, source.id);
  if (result === 'already_forked') throw new ConflictError('Project already forked');
  if (result === 'source_gone') throw new NotFoundError('Project');
  return { ...project, forkedFromId: source.id };
}

/** Removes the fork relation; 304 when the project is not a fork. */
export async function removeForkRelation(project: Project): Promise<void> {
  if (project.forkedFromId === null) throw new NotModifiedError();
  const sourceId = project.forkedFromId;
  const sourceLeft = (await getProject(sourceId)) !== undefined;
  if ((await unlinkFork(project.id, sourceId, sourceLeft)) === 'not_forked') throw new NotModifiedError();
}
