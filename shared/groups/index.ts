/**
 * The Groups API (groups, their projects, namespaces listing) builds on namespaces, projects and
 * memberships; no feature builds on it. It exports only the background deletion of a group tree,
 * for the jobs worker (`functions/jobs`). The group records themselves, their paths and finders
 * are the namespaces feature's (`shared/namespaces`).
 */
export { GROUP_DELETION, runGroupDeletion } from './commands/delete-group';
