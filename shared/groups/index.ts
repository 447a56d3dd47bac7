/**
 * The Groups API (groups, their projects, namespaces listing) builds on namespaces, projects and
 * memberships; no feature builds on it. It exports only the background deletion of a group tree,
 * for the jobs worker (`functions/jobs`), and where the composition root declares what other
 * features remove with a group (`removeWithGroup`). The group records themselves, their paths and
 * finders are the namespaces feature's (`shared/namespaces`).
 */
export { GROUP_DELETION, runGroupDeletion } from './commands/delete-group';
export { removeWithGroup, type GroupRemoval } from './commands/lifecycle';
