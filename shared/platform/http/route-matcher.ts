/**
 * Matching a raw request path against route resources as API Gateway does: the resource is
 * chosen first, from the path alone (static segments before `{param}` before a final greedy
 * `{param+}`), then the method; HEAD is served by GET. The local gateway matches the deployed
 * resources with it, and a group handler whose routes API Gateway serves through one greedy
 * subtree resource finds the route inside the function with it.
 */
import type { RouteSpec } from './routing';

/**
 * The route that serves `method` on a resource, given the resource's routes by method: its own,
 * or for HEAD the GET route (as GitLab answers HEAD wherever GET exists; the event's `httpMethod`
 * still says `HEAD`). The deployed API and the local runtime both decide with this.
 */
export function servingRoute<T>(methods: ReadonlyMap<string, T>, method: string): T | undefined {
  const upper = method.toUpperCase();
  return methods.get(upper) ?? (upper === 'HEAD' ? methods.get('GET') : undefined);
}

export interface RouteMatch<R extends RouteSpec = RouteSpec> {
  route: R;
  /** Raw (still percent-encoded) segment values, or null when the resource has no parameters. */
  pathParameters: Record<string, string> | null;
}

/** A resource path segment: static, `{param}` (one raw segment) or a final greedy `{param+}`. */
type Segment = { kind: 'static'; value: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };

interface CompiledResource<R extends RouteSpec = RouteSpec> {
  resource: string;
  segments: Segment[];
  /** Whether the last segment is greedy (`{proxy+}`): it then matches one or more raw segments. */
  greedy: boolean;
  methods: Map<string, R>;
}

function toSegment(segment: string): Segment {
  if (!segment.startsWith('{') || !segment.endsWith('}')) return { kind: 'static', value: segment };
  const name = segment.slice(1, -1);
  return name.endsWith('+') ? { kind: 'greedy', name: name.slice(0, -1) } : { kind: 'param', name };
}

/** Groups routes by resource (API Gateway matches the resource first, then the method). */
function compile<R extends RouteSpec>(routes: readonly R[]): CompiledResource<R>[] {
  const byResource = new Map<string, CompiledResource<R>>();
  for (const route of routes) {
    let compiled = byResource.get(route.resource);
    if (!compiled) {
      const segments = route.resource.split('/').filter(Boolean).map(toSegment);
      const greedyAt = segments.findIndex((segment) => segment.kind === 'greedy');
      if (greedyAt !== -1 && greedyAt !== segments.length - 1) {
        throw new Error(`${route.resource}: a greedy path parameter must be the last segment`);
      }
      compiled = { resource: route.resource, segments, greedy: greedyAt !== -1, methods: new Map() };
      byResource.set(route.resource, compiled);
    }
    compiled.methods.set(route.method, route);
  }
  return [...byResource.values()];
}

const compiledCache = new WeakMap<readonly RouteSpec[], CompiledResource[]>();

function compiledFor<R extends RouteSpec>(routes: readonly R[]): CompiledResource<R>[] {
  let compiled = compiledCache.get(routes);
  if (!compiled) {
    compiled = compile(routes);
    compiledCache.set(routes, compiled);
  }
  return compiled as CompiledResource<R>[];
}

/** Splits a raw path into raw segments; one trailing slash is ignored, as API Gateway does. */
function rawSegments(rawPath: string): string[] | undefined {
  const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  if (!trimmed.startsWith('/')) return undefined;
  return trimmed.split('/').slice(1);
}

const SPECIFICITY: Record<Segment['kind'], number> = { static: 0, param: 1, greedy: 2 };

/**
 * Negative when `a` is more specific. A resource without a greedy parameter beats one with;
 * otherwise, at the first position where they differ, static beats `{param}` beats `{param+}`
 * (between greedy resources, the longer fixed prefix wins).
 */
function compareSpecificity(a: CompiledResource, b: CompiledResource): number {
  if (a.greedy !== b.greedy) return a.greedy ? 1 : -1;
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const difference = SPECIFICITY[a.segments[i].kind] - SPECIFICITY[b.segments[i].kind];
    if (difference !== 0) return difference;
  }
  return b.segments.length - a.segments.length;
}

/** Whether `candidate` matches the raw segments: statics byte for byte, parameters non-empty. */
function matches(candidate: CompiledResource, segments: readonly string[]): boolean {
  const fixed = candidate.greedy ? candidate.segments.length - 1 : candidate.segments.length;
  if (candidate.greedy ? segments.length <= fixed : segments.length !== fixed) return false;
  for (let i = 0; i < segments.length; i++) {
    const segment = candidate.segments[Math.min(i, candidate.segments.length - 1)];
    if (segment.kind === 'static' ? segment.value !== segments[i] : segments[i] === '') return false;
  }
  return true;
}

/**
 * Finds the route for a RAW request path (not decoded: `{param}` matches exactly one raw
 * segment, so `a%2Fb` is one segment; static segments compare byte for byte). A greedy
 * `{param+}` matches one or more non-empty raw segments and receives them joined with `/`; it is
 * the last resort, chosen only when no resource without one matches.
 *
 * Like API Gateway, the resource is chosen first, from the path alone, preferring a static
 * segment over a `{param}` at each level; only then is the method looked up, so a method the
 * chosen resource lacks is a 404 even if a less specific resource has it.
 */
export function matchRoute<R extends RouteSpec>(method: string, rawPath: string, routes: readonly R[]): RouteMatch<R> | undefined {
  const segments = rawSegments(rawPath);
  if (!segments) return undefined;
  let best: CompiledResource<R> | undefined;
  for (const candidate of compiledFor(routes)) {
    if (matches(candidate, segments) && (!best || compareSpecificity(candidate, best) < 0)) best = candidate;
  }
  if (!best) return undefined;
  const route = servingRoute(best.methods, method);
  if (!route) return undefined;
  let pathParameters: Record<string, string> | null = null;
  best.segments.forEach((segment, i) => {
    if (segment.kind === 'param') (pathParameters ??= {})[segment.name] = segments[i];
    if (segment.kind === 'greedy') (pathParameters ??= {})[segment.name] = segments.slice(i).join('/');
  });
  return { route, pathParameters };
}

