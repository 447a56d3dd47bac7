/**
 * The house rules of the code base, checked by `npm test` (`npm run check:boundaries`).
 * See README "Architecture": a feature is one folder under shared/, reached by other features only
 * through its index.ts; its routes/ are reached only by the Lambda entries in functions/; the
 * platform (shared/platform) knows no feature; nothing in shared/ or functions/ reaches infra/.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-knows-no-feature',
      severity: 'error',
      comment: 'shared/platform is what every feature uses; it imports nothing of a feature, not even a type.',
      from: { path: '^shared/platform/' },
      to: { path: '^shared/', pathNot: '^shared/platform/' },
    },
    {
      name: 'features-meet-at-index',
      severity: 'error',
      comment: "A feature reaches another feature only through that feature's index.ts.",
      from: { path: '^shared/([^/]+)/', pathNot: '^shared/[^/]+/abilities\\.ts$|^shared/auth/policy\\.ts$' },
      to: { path: '^shared/[^/]+/', pathNot: ['^shared/$1/', '^shared/platform/', '^shared/[^/]+/index\\.ts$'] },
    },
    {
      name: 'abilities-are-declarations',
      severity: 'error',
      comment:
        "A feature's abilities.ts declares rules with auth/rules.ts only, and only the one policy module " +
        '(auth/policy.ts) reads it, as shared/catalog.ts reads the catalog slices: pure declarations assembled in one place.',
      from: { path: '^shared/[^/]+/abilities\\.ts$' },
      to: { path: '^shared/', pathNot: ['^shared/auth/rules\\.ts$', '^shared/platform/http/context\\.ts$'] },
    },
    {
      name: 'abilities-read-by-policy-only',
      severity: 'error',
      from: { pathNot: ['^shared/auth/policy\\.ts$', '^test/'] },
      to: { path: '^shared/[^/]+/abilities\\.ts$' },
    },
    {
      name: 'policy-reads-only-abilities',
      severity: 'error',
      from: { path: '^shared/auth/policy\\.ts$' },
      to: { path: '^shared/(?!auth/|platform/)', pathNot: '^shared/[^/]+/abilities\\.ts$' },
    },
    {
      name: 'routes-are-entry-points',
      severity: 'error',
      comment:
        "A feature's routes/ (its HTTP slice) is imported only by the Lambda entries in functions/ and by its own routes " +
        '(infra reads the route definitions through the entries, e.g. for the OpenAPI document).',
      from: { path: '^(shared|infra|bin)/', pathNot: '^shared/([^/]+)/routes/' },
      to: { path: '^shared/[^/]+/routes/' },
    },
    {
      name: 'code-does-not-reach-infra',
      severity: 'error',
      comment: 'Handlers and features never import infrastructure code (CDK constructs, the local runtime) or tests.',
      from: { path: '^(shared|functions)/' },
      to: { path: '^(infra|bin|test)/' },
    },
    {
      name: 'production-code-uses-production-dependencies',
      severity: 'error',
      comment: 'What is bundled into Lambda imports only dependencies, never devDependencies.',
      from: { path: '^(shared|functions)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (type-only imports of packages that ship only types, such as aws-lambda, excepted).',
      from: {},
      to: { couldNotResolve: true, pathNot: '^aws-lambda$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.data|cdk\\.out)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: {
      dot: { collapsePattern: '^(shared/[^/]+|functions/[^/]+|infra/[^/]+|test/[^/]+)/' },
    },
  },
};
