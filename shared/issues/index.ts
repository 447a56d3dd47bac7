export { issueWebUrl } from './presenters/issues';
export type { Issue } from './store/issues';
export { listLabels, type Label } from './store/labels';
export { listMilestones, type Milestone } from './store/milestones';
export type { Note } from './store/notes';
export { presentTimeStats } from './presenters/time-stats';
export type { TimeTracked } from './store/issue-time';
export { formatTotal } from './time-tracking';
export { issueHookPayloads } from './webhooks/builders';
