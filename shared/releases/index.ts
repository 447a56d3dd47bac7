/**
 * The releases feature's public API: the only module other features and the composition roots
 * import. Releases sit above the repository (tags, commits) and the issues (milestones); nothing
 * builds on them, so this exports only the hook the composition root wires (`functions/api.ts`
 * loads its defining module lazily, as it does every hook).
 */
export { removeReleaseOfTag } from './commands/releases';
