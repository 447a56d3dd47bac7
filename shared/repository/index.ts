/**
 * The repository feature's public API: the only module other features and the composition roots
 * import.
 */
export { forkRepository, removeRepository } from './lifecycle';
export { branchProtection, type BranchProtection } from './queries/protection';
