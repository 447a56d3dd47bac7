/** The issues feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupLabelRoutes } from './group-labels';
import { groupMilestoneRoutes } from './group-milestones';
import { awardEmojiRoutes } from './award-emoji';
import { discussionRoutes } from './discussions';
import { issueActionRoutes } from './issue-actions';
import { issueRoutes } from './issues';
import { labelRoutes } from './labels';
import { linkRoutes } from './links';
import { milestoneRoutes } from './milestones';
import { noteRoutes } from './notes';
import { resourceEventRoutes } from './resource-events';
import { groupIssueStatisticsRoutes, issueStatisticsRoutes, projectIssueStatisticsRoutes } from './statistics';
import { todoRoutes } from './todos';

export const routes = {
  // An issue's notes and actions are served by the issues function (`shared/catalog.ts`).
  issues: { ...issueRoutes, ...noteRoutes, ...discussionRoutes, ...awardEmojiRoutes, ...issueActionRoutes, ...linkRoutes, ...resourceEventRoutes, ...issueStatisticsRoutes },
  // Served by the projects and groups functions, which import them from their module.
  projects: projectIssueStatisticsRoutes,
  groups: groupIssueStatisticsRoutes,
  labels: { ...labelRoutes, ...groupLabelRoutes },
  milestones: { ...milestoneRoutes, ...groupMilestoneRoutes },
  todos: todoRoutes,
};
