export { findProjectOrNotFound } from './finders';
export { presentEvent } from './presenters/events';
export { presentProjects, sshHost, webUrlOf } from './presenters/projects';
export { listProjects, readableProjects } from './project-lists';
export { deleteProject, unshareProject, unstarProject } from './projects';
export { eventFromItem, prepareEvent, recordEvent } from './store/events';
export type { NewEvent } from './store/events';
export { getProject, projectCounterUpdate, projectFromItem, projectIsLive } from './store/projects';
export type { Project } from './store/projects';
