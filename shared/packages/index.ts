/**
 * The packages feature's public API: the only module other features import. Nothing builds on
 * packages yet; the removal step of a deleted project is wired by the composition root
 * (`functions/api.ts`) from `commands/packages.ts`.
 */
export type { Package, PackageFile } from './store/packages';
