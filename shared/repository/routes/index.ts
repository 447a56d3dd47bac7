/** The repository feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { branchRoutes } from './branches';
import { commitNoteRoutes } from './commit-notes';
import { commitRoutes } from './commits';
import { fileRoutes } from './files';
import { housekeepingRoutes } from './housekeeping';
import { languageRoutes } from './languages';
import { protectedBranchRoutes } from './protected-branches';
import { protectedTagRoutes } from './protected-tags';
import { repositoryRoutes } from './repositories';
import { tagRoutes } from './tags';
import { webRoutes } from './web';

export { isGitAddress, smartHttpHandler } from './web';

export const routes = {
  repository: { ...commitRoutes, ...commitNoteRoutes, ...branchRoutes, ...protectedBranchRoutes, ...protectedTagRoutes, ...fileRoutes, ...repositoryRoutes, ...tagRoutes, ...housekeepingRoutes, ...languageRoutes },
  web: webRoutes,
};
