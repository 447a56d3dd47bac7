/**
 * The deploy keys feature's public API: the only module other features import. Nothing above it
 * needs its keys yet (git over SSH is not served, so no deploy key reaches a repository); its
 * routes are wired by the Lambda entries, and a deleted project's links are removed by the
 * composition root (`functions/api.ts`), which loads `commands/deploy-keys` on first use; the
 * bootstrap's migrations give keys written before it their MD5 fingerprint entry.
 */
export { indexDeployKeyFingerprints, type DeployKey, type DeployKeyLink } from './store/deploy-keys';
