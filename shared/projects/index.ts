/**
 * The projects feature's public API: the only module other features import. What it exports is
 * what they use (members, groups' and users' upper modules, hooks, issues); nothing here imports
 * a feature above projects.
 */
export { deleteProject, PROJECT_DELETION, runProjectDeletion, scheduleProjectDeletion } from './commands/projects';
export { projectAvatarUrl } from './store/avatars';
export { forgetUser } from './commands/forget-user';
export { deleteUserEvents, removeUserEvents } from './commands/remove-user-events';
export { forkWithProject, removeWithProject, type ForkStep, type ProjectRemoval } from './commands/lifecycle';
export { unshareProject } from './commands/shares';
export { unstarProject } from './commands/stars';
export { capProjectVisibility, transferProject } from './commands/transfer';
export { findProjectAndRead, findProjectAt, findProjectAtPath, findProjectForJobOrNotFound, findProjectOrNotFound, projectSubject } from './finders';
export { jobTokenMayReach } from './job-token-reach';
export { canReadEvent } from './policy';
export { presentEvent } from './presenters/events';
export { projectFullPath } from './paths';
export { presentProjects, webUrlOf } from './presenters/projects';
export { memberProjects, projectList, readableProjects, type ProjectList } from './queries/project-lists';
export { eventFromItem, prepareEvent, recordEvent, type NewEvent } from './store/events';
export { indexProjectContributions } from './store/contributions';
export { indexProjectStarrers } from './store/stars';
export { projectCollections, projectKeys } from './store/keys';
export { groupProjectIds } from './store/lookups';
export { allProjectIds, backfillProjectSearchEntries, ciSettingsOf, getProject, getProjects, projectCounterUpdate, projectFromItem, readProjectRecord, projectIdForRunnersToken, projectIsLive, recordPushActivity, recordRepositorySize, type Project } from './store/projects';
