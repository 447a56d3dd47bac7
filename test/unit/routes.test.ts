import { describe, expect, it } from 'vitest';
import { API_PREFIX, allRoutes, type RouteSpec } from '../../shared/routes';

const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/**
 * Internal: the places where API Gateway would refuse the resource tree, i.e. one parent with two
 * `{param}` children of different names (`/users/{id}` beside `/users/{user_id}/keys`).
 */
function siblingParamConflicts(resources: readonly string[]): string[] {
  const paramChild = new Map<string, string>();
  const conflicts = new Set<string>();
  for (const resource of resources) {
    let parent = '';
    for (const segment of resource.split('/').filter(Boolean)) {
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
      expect(route.path).toMatch(/^(\/([a-z0-9_.-]+|:[a-z_]+))+$/);
      expect(route.resource.startsWith(`${API_PREFIX}/`)).toBe(true);
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

  it('detects differently named sibling parameters', () => {
    // Prepare
    const resources = ['/api/v4/users/{id}', '/api/v4/users/{user_id}/keys', '/api/v4/keys/{id}'];

    // Act
    const conflicts = siblingParamConflicts(resources);

    // Assess
    expect(conflicts).toEqual(['/api/v4/users: {id} vs {user_id}']);
  });
});
