/**
 * The runtime's own contract (API Gateway + handler wiring), checked against whatever base URL
 * the global setup provides: the local runtime or a deployed stage.
 */
import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createToken, createUser, ownedProject } from '../support/fixtures';

describe('runtime', () => {
  it('answers an unknown route with 404 {"error":"404 Not Found"}', async () => {
    // Act
    const response = await api('/this/route/does/not/exist', { token: rootToken() });

    // Assert
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: '404 Not Found' });
  });

  it('answers a known path with an unknown method with 404', async () => {
    // Act
    const response = await api('/version', { method: 'PATCH', token: rootToken() });

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: '404 Not Found' });
  });

  it('answers a path outside /api/v4 with 404', async () => {
    // Act
    const response = await fetch(`${baseUrl()}/nothing-here`);

    // Assert
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: '404 Not Found' });
  });

  it('serves GET /version to an authenticated user', async () => {
    // Act
    const response = await api<{ version: unknown; revision: unknown }>('/version', { token: rootToken() });

    // Assert
    expect(response.status).toBe(200);
    expect(typeof response.body.version).toBe('string');
    expect(typeof response.body.revision).toBe('string');
  });

  it('serves GET /metadata (what glab reads) with the version, no KAS and no enterprise features; 401 without a token', async () => {
    const [response, version, anonymous] = await Promise.all([api('/metadata', { token: rootToken() }), api<{ version: string }>('/version', { token: rootToken() }), api('/metadata')]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: version.body.version, revision: expect.any(String), kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }, enterprise: false });
    expect(anonymous.status).toBe(401);
  });

  it('accepts the token as Authorization: Bearer too', async () => {
    // Act
    const response = await api('/version', { headers: { Authorization: `Bearer ${rootToken()}` } });

    // Assert
    expect(response.status).toBe(200);
  });

  it('echoes a request id in X-Request-Id', async () => {
    // Act
    const first = await api('/version', { token: rootToken() });
    const second = await api('/version', { token: rootToken() });

    // Assert
    const firstId = first.headers.get('x-request-id');
    expect(firstId).toBeTruthy();
    expect(second.headers.get('x-request-id')).toBeTruthy();
    expect(second.headers.get('x-request-id')).not.toBe(firstId);
  });

  it('puts X-Request-Id on gateway-generated 404s as well', async () => {
    // Act
    const response = await api('/no-such-thing');

    // Assert
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses /version without a token: 401 {"message":"401 Unauthorized"}', async () => {
    // Act
    const response = await api('/version');

    // Assert
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses /version with an unknown token: 401', async () => {
    // Act
    const response = await api('/version', { token: 'glpat-not-a-real-token' });

    // Assert
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it('delivers an encoded slash in a path parameter as one segment, to the route handler', async () => {
    // Act: decoded, `a%2Fb` would make `/users/a/b` (no such route, the gateway's 404); kept
    // encoded it is one `{id}` and reaches the users handler, which rejects it as an id.
    const response = await api('/users/a%2Fb', { token: rootToken() });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'id is invalid' });
  });

  describe('HEAD', () => {
    it('answers HEAD on a list as GET does, with its paging headers and no body', async () => {
      // Prepare
      const { owner } = await ownedProject('private');
      const get = await api('/projects', { token: owner.token, query: { owned: true } });

      // Act
      const head = await api('/projects', { method: 'HEAD', token: owner.token, query: { owned: true } });

      // Assess
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      for (const name of ['x-total', 'x-per-page', 'x-page', 'content-type']) expect(head.headers.get(name), name).toBe(get.headers.get(name));
    });

    it('answers HEAD on one project 200, on a project the caller may not see 404, both without a body', async () => {
      // Prepare
      const project = await ownedProject('private');
      const stranger = await createUser();

      // Act
      const own = await api(`/projects/${project.id}`, { method: 'HEAD', token: rootToken() });
      const hidden = await api(`/projects/${project.id}`, { method: 'HEAD', token: stranger.token });

      // Assess
      expect([own.status, own.body]).toEqual([200, '']);
      expect([hidden.status, hidden.body]).toEqual([404, '']);
    });

    it('accepts a read_user token on HEAD of the users routes, as on GET', async () => {
      // Prepare
      const user = await createUser();
      const token = await createToken(user.id, ['read_user']);

      // Act
      const head = await api('/user', { method: 'HEAD', token });
      const write = await api('/projects', { method: 'HEAD', token });

      // Assess
      expect(head.status).toBe(200);
      expect(write.status).toBe(403);
    });

    it('answers HEAD on an unknown route 404', async () => {
      // Act
      const response = await api('/this/route/does/not/exist', { method: 'HEAD', token: rootToken() });

      // Assess
      expect(response.status).toBe(404);
    });
  });

  it('serves the OpenAPI document to anyone at GET /openapi.json, covering its own route', async () => {
    // Act
    const response = await api<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths['/api/v4/openapi.json'] ?? {})).toContain('get');
    expect(Object.keys(response.body.paths).length).toBeGreaterThan(50);
  });
});
