/**
 * The cycle check, on the run-time import graph: type-only imports vanish when TypeScript is
 * compiled, so they cannot form a run-time circle and are left out here (tsPreCompilationDeps:
 * false). The boundary rules (.dependency-cruiser.cjs) apply to every import, types included.
 */
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles between modules (at run time).',
      from: {},
      to: { circular: true },
    },
  ],
  options: { ...base.options, tsPreCompilationDeps: false },
};
