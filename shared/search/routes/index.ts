/** The search feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`; each entry imports its own module). */
export { globalSearchRoutes } from './global';
export { groupSearchRoutes } from './group';
export { projectSearchRoutes } from './project';
