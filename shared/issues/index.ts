export { issueWebUrl } from './presenters/issues';
export type { Issue } from './store/issues';
export { listLabels, type Label } from './store/labels';
export { listMilestones, type Milestone } from './store/milestones';
export type { Note } from './store/notes';
export { formatTotal, presentTimeStats, type TimeTracked } from './time-tracking';
