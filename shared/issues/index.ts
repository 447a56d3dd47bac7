export { issueWebUrl } from './presenters/issues';
export type { Issue } from './store/issues';
export { listLabels } from './store/labels';
export type { Label } from './store/labels';
export { listMilestones } from './store/milestones';
export type { Milestone } from './store/milestones';
export type { Note } from './store/notes';
export { formatTotal, presentTimeStats } from './time-tracking';
export type { TimeTracked } from './time-tracking';
