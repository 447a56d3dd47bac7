/**
 * The Terraform states feature's public API: the only module other features import. Nothing builds
 * on Terraform states; the removal step of a deleted project is wired by the composition root
 * (`functions/api.ts`) from `commands/states.ts`, loaded on first use.
 */
export type { TerraformState, TerraformStateVersion } from './store/states';
