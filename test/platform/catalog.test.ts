import { describe, expect, it } from 'vitest';
import { API_PREFIX, GATEWAY_SUBTREES, allRoutes, gatewayRoutes, parseRouteKey, toResource, type RouteSpec } from '../../shared/catalog';
import { matchRoute } from '../../shared/platform/http/route-matcher';

const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/**
 * Internal: the places where API Gateway would refuse the resource tree, i.e. one parent with two
 * `{param}` children of different names (`/users/{id}` beside `/users/{user_id}/keys`; a greedy
 * `{path+}` counts as a parameter child too), or a greedy `{param+}` with children.
 */
function siblingParamConflicts(resources: readonly string[]): string[] {
  const paramChild = new Map<string, string>();
  const conflicts = new Set<string>();
  for (const resource of resources) {
    let parent = '';
    for (const segment of resource.split('/').filter(Boolean)) {
      if (parent.endsWith('+}')) conflicts.add(`${parent}: a greedy parameter cannot have children`);
      if (segment.startsWith('{')) {
        const existing = paramChild.get(parent);
        if (existing === undefined) paramChild.set(parent, segment);
        else if (existing !== segment) conflicts.add(`${parent || '/'}: ${existing} vs ${segment}`);
      }
      parent = `${parent}/${segment}`;
    }
  }
  return [...conflicts];
}

describe('route catalog', () => {
  it('declares each route once', () => {
    // Prepare
    const keys = allRoutes().map((route) => `${route.method} ${route.path}`);

    // Act
    const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);

    // Assess
    expect(duplicates).toEqual([]);
  });

  it.each(allRoutes().map((route): [string, RouteSpec] => [route.key, route]))(
    'uses a supported method and a well-formed path for %s',
    (_key, route) => {
      // Assess
      expect(ALLOWED_METHODS).toContain(route.method);
      // Static segments and `:params`; a greedy `:param+` only as the last segment.
      expect(route.path).toMatch(/^(\/([a-z0-9_.-]+|:[a-z_]+))*(\/:[a-z_]+\+)?$/);
      expect(route.path).not.toBe('');
      expect(route.resource).toBe(`${route.prefix}${route.path.replace(/:([a-z_]+\+?)/g, '{$1}')}`);
      expect(route.resource).not.toContain(':');
    },
  );

  it('builds a resource tree API Gateway accepts (no differently named sibling parameters)', () => {
    // Prepare
    const resources = allRoutes().map((route) => route.resource);

    // Act
    const conflicts = siblingParamConflicts(resources);

    // Assess
    expect(conflicts).toEqual([]);
  });

  it('serves every group under /api/v4 except web, which is served from the root', () => {
    // Act
    const prefixes = new Map(allRoutes().map((route) => [route.group, route.prefix]));

    // Assess
    for (const [group, prefix] of prefixes) expect(prefix, group).toBe(group === 'web' ? '' : API_PREFIX);
  });

  it('turns a greedy :param+ into a {param+} resource', () => {
    // Act
    const web = parseRouteKey('web', 'GET /:path+');

    // Assess
    expect(web.resource).toBe('/{path+}');
    expect(toResource('/projects/:id/files/:file_path+')).toBe('/api/v4/projects/{id}/files/{file_path+}');
  });

  it('allows the greedy root resource beside the /api tree', () => {
    // Prepare
    const resources = ['/{path+}', '/api/v4/users/{id}', '/api/v4/projects/{id}/uploads'];

    // Act
    const conflicts = siblingParamConflicts(resources);

    // Assess
    expect(conflicts).toEqual([]);
  });

  it('detects a greedy parameter beside a differently named parameter, or with children', () => {
    // Prepare
    const resources = ['/{path+}', '/{id}/keys', '/files/{rest+}/raw'];

    // Act
    const conflicts = siblingParamConflicts(resources);

    // Assess
    expect(conflicts).toEqual(['/: {path+} vs {id}', '/files/{rest+}: a greedy parameter cannot have children']);
  });

  it('detects differently named sibling parameters', () => {
    // Prepare
    const resources = ['/api/v4/users/{id}', '/api/v4/users/{user_id}/keys', '/api/v4/keys/{id}'];

    // Act
    const conflicts = siblingParamConflicts(resources);

    // Assess
    expect(conflicts).toEqual(['/api/v4/users: {id} vs {user_id}']);
  });
});

describe('subtrees served by one greedy resource', () => {
  it('holds only routes of its own group, and nothing else of the catalog lies under it (but under a shared one)', () => {
    for (const subtree of GATEWAY_SUBTREES) {
      const under = allRoutes().filter((route) => route.resource.startsWith(`${subtree.resource}/`));
      expect(under.filter((route) => route.group === subtree.group).length, subtree.resource).toBeGreaterThan(0);
      if (subtree.shared) continue;
      expect(under.filter((route) => route.group !== subtree.group).map((route) => route.key), subtree.resource).toEqual([]);
    }
  });

  it('routes every request of the catalog to its own group, as API Gateway matches the deployed resources', () => {
    // Prepare: each route's path with sample values (`{proxy+}` and `{path+}` take two segments).
    const deployed = gatewayRoutes();
    const samplePath = (route: RouteSpec) => route.resource.replace(/\{[a-z_]+\+\}/g, 'a/b').replace(/\{[a-z_]+\}/g, 'x1');

    // Act
    const misrouted = allRoutes()
      .map((route) => ({ route, match: matchRoute(route.method, samplePath(route), deployed) }))
      .filter(({ route, match }) => match?.route.group !== route.group)
      .map(({ route, match }) => `${route.group}: ${route.key} → ${match ? `${match.route.group}: ${match.route.key}` : 'nothing'}`);

    // Assess
    expect(misrouted).toEqual([]);
  });

  it('leaves API Gateway a tree it accepts, one greedy resource per subtree with the methods its routes use', () => {
    const routes = gatewayRoutes();
    expect(siblingParamConflicts(routes.map((route) => route.resource))).toEqual([]);
    const repository = routes.filter((route) => route.resource === `${API_PREFIX}/projects/{id}/repository/{proxy+}`);
    expect(repository.map((route) => route.method).sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
    expect(repository.every((route) => route.group === 'repository')).toBe(true);
  });
});
