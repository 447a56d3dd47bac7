export { findProjectOrNotFound } from './finders';
export { presentEvent } from './presenters/events';
export { presentProjects, projectFullPath, sshHost, webUrlOf } from './presenters/projects';
export { listProjects, readableProjects } from './project-lists';
export { deleteProject, unshareProject, unstarProject } from './projects';
export { eventFromItem, prepareEvent, recordEvent, type NewEvent } from './store/events';
export { getProject, projectCounterUpdate, projectFromItem, projectIsLive, type Project } from './store/projects';
export { projectCollections, projectKeys } from './store/keys';
export { canReadEvent } from './policy';
