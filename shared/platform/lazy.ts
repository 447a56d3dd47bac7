/**
 * Lazy wiring: a function that loads its module the first time it is called. The composition root
 * (`functions/api.ts`) registers the features' hooks into each other (a project's removal steps,
 * push listeners, todo targets, ...) in every API function, but most functions never run most of
 * them; registering `lazily(() => import('../shared/ci/commands/push'), (m) => m.startPipelinesOnPush)`
 * instead of `startPipelinesOnPush` keeps CI's pipeline code (and its YAML parser) out of what a
 * function loads at cold start: the bundler puts a module reached only through `import()` in
 * chunks of its own (`infra/bundling.ts`), read from the function's package when first called.
 * That holds only for a module no static import reaches in that function (see `infra/bundling.ts`).
 *
 * The module is imported when the returned function is first called, before `pick` reads it:
 * whatever the module registers when loaded is in place by then. Later calls reuse the loaded
 * module (one resolved promise).
 */

/**
 * A function with the signature of `pick(module)` that loads the module on its first call.
 * @example
 * removeWithProject(lazily(() => import('../shared/ci/commands/removal'), (m) => m.removeCiObjects));
 */
export function lazily<M, A extends unknown[], R>(load: () => Promise<M>, pick: (module: M) => (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
  let loading: Promise<M> | undefined;
  return async function lazilyLoaded(...args: A): Promise<Awaited<R>> {
    // A load that failed (a chunk missing from a broken deployment) is tried again by the next call.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return await pick(await loading)(...args);
  };
}
