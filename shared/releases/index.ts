/**
 * The releases feature's public API: the only module other features and the composition roots
 * import. Releases sit above the repository (tags, commits) and the issues (milestones).
 */
export { removeReleaseOfTag } from './commands/releases';
export { releaseCollections, releaseKeys } from './store/keys';
