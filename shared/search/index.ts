/**
 * The search feature's public API. Nothing builds on search: it reads other features' lists
 * (through their `index.ts`), and its routes are imported by the Lambda entries only.
 */
export { GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES } from './scopes';
