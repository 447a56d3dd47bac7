/** The issues feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { issueActionRoutes } from './issue-actions';
import { issueRoutes } from './issues';
import { labelRoutes } from './labels';
import { milestoneRoutes } from './milestones';
import { noteRoutes } from './notes';
import { todoRoutes } from './todos';

export const routes = {
  issues: issueRoutes,
  notes: noteRoutes,
  issue_actions: issueActionRoutes,
  labels: labelRoutes,
  milestones: milestoneRoutes,
  todos: todoRoutes,
};
