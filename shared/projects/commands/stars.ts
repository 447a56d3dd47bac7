/** Stars: `star_count` moves in the same transaction as the star (`store/stars.ts`). */
import type { User } from '../../users';
import { NotModifiedError } from '../../platform/http/errors';
import { deleteStar, putStar } from '../store/stars';
import type { Project } from '../store/projects';

/** Stars a project: 304 if the user already starred it. */
export async function starProject(project: Project, user: User): Promise<Project> {
  if ((await putStar(project.id, user.id)) === 'already_starred') throw new NotModifiedError();
  return { ...project, starCount: project.starCount + 1 };
}

/** Unstars a project: 304 if the user had not starred it. */
export async function unstarProject(project: Project, user: User): Promise<Project> {
  if ((await deleteStar(project.id, user.id)) === 'not_starred') throw new NotModifiedError();
  return { ...project, starCount: project.starCount - 1 };
}
