/**
 * The boards feature's public API: project and group issue boards and their label lists, built on
 * the issues feature's labels. What others need of it is the removal of a deleted label's lists,
 * wired by the composition root as a listener of the issues feature's label deletions (its
 * defining module, `commands.ts`, is what the root loads).
 */
export { removeListsOfLabel } from './commands';
