/** The snippets feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { personalSnippetRoutes } from './personal';
import { projectSnippetRoutes } from './snippets';

export const routes = {
  projects: projectSnippetRoutes,
  meta: personalSnippetRoutes,
};
