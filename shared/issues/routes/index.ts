/** The issues feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { issueActionRoutes } from './issue-actions';
import { issueRoutes } from './issues';
import { labelRoutes } from './labels';
import { milestoneRoutes } from './milestones';
import { noteRoutes } from './notes';
import { todoRoutes } from './todos';

export const routes = {
  // An issue's notes and actions are served by the issues function (`shared/catalog.ts`).
  issues: { ...issueRoutes, ...noteRoutes, ...issueActionRoutes },
  labels: labelRoutes,
  milestones: milestoneRoutes,
  todos: todoRoutes,
};
