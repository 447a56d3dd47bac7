/** GitLab's `UserStarsProject` entity: when the user starred the project, and the user (`UserBasic`). */
import { presentUserPublic } from '../../users';
import type { Starrer } from '../queries/starrers';

export const presentStarrer = ({ star, user }: Starrer) => ({ starred_since: star.createdAt, user: presentUserPublic(user) });
