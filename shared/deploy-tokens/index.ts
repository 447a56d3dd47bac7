/**
 * The deploy tokens feature's public API: the only module other features import. CI reads the
 * token its jobs are given; git authentication and the removal steps are wired by the composition
 * root (`functions/api.ts`) from their own modules.
 */
export { gitlabDeployTokenFor } from './queries/deploy-tokens';
