/**
 * A project's starrers (`GET /projects/:id/starrers`, GitLab's `UsersStarProjectsFinder`): its
 * stars newest first, read from the project's starrers index (GSI2 of the star items), each with
 * its user, loaded a chunk at a time (one BatchGetItem per chunk). `search` keeps the starrers
 * whose username or name contains it (case-insensitively, as the project's users list), checked
 * on the users read: its cost grows with the stars read past, not with the table. Without
 * `search`, `X-Total` is the project's `star_count` (kept in the star's transaction).
 */
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { mappedStream, collectionStream, type StreamSource } from '../../platform/http/pagination';
import { projectCollections } from '../store/keys';
import { getUsersById } from '../store/lookups';
import { starFromItem, type Star } from '../store/stars';

/** A star with its user (GitLab's `UserStarsProject`). */
export interface Starrer {
  star: Star;
  user: User;
}

export function projectStarrers({ project }: ProjectSubject, search: string | undefined): StreamSource<Starrer> {
  const query = search?.toLowerCase();
  const stars = collectionStream({ collection: projectCollections.projectStarrers(project.id), ascending: false, select: starFromItem });
  const starrers = mappedStream(stars, async (values: Star[]) => {
    const users = new Map((await getUsersById(values.map((star) => star.userId))).map((user) => [user.id, user]));
    return values.map((star) => {
      const user = users.get(star.userId);
      if (!user || user.deleting) return undefined;
      if (query && !user.username.toLowerCase().includes(query) && !user.name.toLowerCase().includes(query)) return undefined;
      return { star, user };
    });
  });
  return query ? starrers : { ...starrers, total: async () => project.starCount };
}
