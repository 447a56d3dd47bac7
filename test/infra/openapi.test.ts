import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, publishedDocument, renderOpenApi } from '../../infra/openapi-file';
import { apiGatewayDocument, gatewayResources, routesByResource, servingRoute, type OpenApiDocument } from '../../infra/openapi';
import { allRoutes, parseRouteKey } from '../../shared/catalog';

type Parameter = { name: string; in: string; required?: boolean; schema: Record<string, unknown>; style?: string; explode?: boolean };
type Operation = {
  operationId: string;
  tags: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, unknown>;
};

const published = publishedDocument();

function operation(document: OpenApiDocument, method: string, path: string): Operation {
  const found = document.paths[path]?.[method.toLowerCase()] as Operation | undefined;
  expect(found, `${method} ${path}`).toBeDefined();
  return found!;
}

function operationKeys(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => key !== 'parameters')
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('published OpenAPI document (openapi.json)', () => {
  it('is committed exactly as `npm run openapi` generates it (never edited by hand)', () => {
    // Act
    const committed = readFileSync(OPENAPI_FILE, 'utf8');

    // Assess: on failure, run `npm run openapi` and commit openapi.json.
    expect(committed === renderOpenApi(published), 'openapi.json is stale: run `npm run openapi`').toBe(true);
  });

  it('is generated deterministically', () => {
    // Assess
    expect(renderOpenApi(publishedDocument())).toBe(renderOpenApi(published));
  });

  it('lists every route of the catalog once, tagged with its endpoint group, and nothing else', () => {
    // Prepare
    const expected = allRoutes().map((route) => `${route.method} ${route.resource}`);

    // Act
    const listed = operationKeys(published);

    // Assess
    expect(listed.sort()).toEqual(expected.sort());
    for (const route of allRoutes()) expect(operation(published, route.method, route.resource).tags, route.key).toEqual([route.group]);
  });

  it('carries no API Gateway extension and no CloudFormation token', () => {
    // Act
    const text = JSON.stringify(published);

    // Assess
    expect(text).not.toContain('x-amazon-apigateway');
    expect(text).not.toContain('Fn::');
    expect(text).not.toContain('${Token[');
  });

  it('gives every operation a unique operationId', () => {
    // Act
    const ids = allRoutes().map((route) => operation(published, route.method, route.resource).operationId);

    // Assess
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the path parameters of every route in: path, required', () => {
    // Assess
    for (const route of allRoutes()) {
      const inPath = (operation(published, route.method, route.resource).parameters ?? []).filter((parameter) => parameter.in === 'path');
      expect(inPath.map((parameter) => parameter.name), route.key).toEqual([...route.resource.matchAll(/\{([a-z_]+)\+?\}/g)].map((m) => m[1]));
      for (const parameter of inPath) expect(parameter.required, route.key).toBe(true);
    }
  });

  it('takes the other parameters of a GET from the query, typed by the route schema (arrays as name[])', () => {
    // Act
    const parameters = operation(published, 'GET', '/api/v4/issues').parameters!;

    // Assess
    expect(parameters.every((parameter) => parameter.in === 'query')).toBe(true);
    expect(parameters).toContainEqual({ name: 'page', in: 'query', schema: { type: 'integer' } });
    expect(parameters).toContainEqual({ name: 'state', in: 'query', schema: { type: 'string', enum: ['opened', 'closed', 'all'] } });
    expect(parameters).toContainEqual({ name: 'iids[]', in: 'query', style: 'form', explode: true, schema: { type: 'array', items: { type: 'integer' } } });
  });

  it('takes the parameters of a POST as a JSON or form body, with the required ones marked', () => {
    // Act
    const { requestBody, parameters } = operation(published, 'POST', '/api/v4/projects/{id}/issues');

    // Assess
    expect(parameters?.map((parameter) => parameter.in)).toEqual(['path']);
    expect(Object.keys(requestBody!.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const schema = requestBody!.content['application/json'].schema;
    expect(requestBody!.required).toBe(true);
    expect(schema.required).toEqual(['title']);
    expect(schema.properties.confidential).toEqual({ type: 'boolean' });
  });

  it('takes a POST with an optional file (an avatar) as JSON or form without it, or multipart with it', () => {
    // Act
    const { requestBody } = operation(published, 'POST', '/api/v4/users');

    // Assess
    const content = requestBody!.content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(content['application/json'].schema.properties.avatar).toBeUndefined();
    expect(content['multipart/form-data'].schema.properties.avatar).toEqual({ type: 'string', format: 'binary' });
    expect(content['application/json'].schema.required).toEqual(expect.arrayContaining(['email', 'username', 'name']));
  });

  it('takes an upload as a multipart body with a binary file', () => {
    // Act
    const { requestBody } = operation(published, 'POST', '/api/v4/projects/{id}/uploads');

    // Assess
    expect(requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
      },
    });
  });

  it('describes the responses by status code', () => {
    // Assess
    expect(Object.keys(operation(published, 'GET', '/api/v4/users/{id}').responses)).toEqual(['200', '400', '401', '403', '404']);
    expect(operation(published, 'POST', '/api/v4/users').responses).toMatchObject({ 201: { description: 'Created' } });
    expect(operation(published, 'DELETE', '/api/v4/projects/{id}').responses).toMatchObject({ 202: { description: 'Accepted' } });
    for (const route of allRoutes()) {
      const statuses = Object.keys(operation(published, route.method, route.resource).responses);
      expect(statuses.some((status) => status.startsWith('2')), route.key).toBe(true);
    }
  });

  it('lets anonymous routes be called without a token, and requires one elsewhere', () => {
    // Assess
    expect(published.security).toEqual([{ PrivateToken: [] }, { Bearer: [] }, { PrivateTokenParameter: [] }]);
    expect(operation(published, 'GET', '/api/v4/projects/{id}').security?.[0]).toEqual({});
    expect(operation(published, 'GET', '/api/v4/version').security).toBeUndefined();
  });
});

describe('API Gateway document', () => {
  const uri = (group: string) => `uri-of-${group}`;
  const routes = [
    parseRouteKey('users', 'GET /users/:id'),
    parseRouteKey('users', 'DELETE /users/:id'),
    parseRouteKey('uploads', 'POST /projects/:id/uploads'),
    parseRouteKey('web', 'GET /:path+'),
  ];

  it('integrates each operation with its group, adds HEAD beside GET, and the gateway settings', () => {
    // Act
    const document = apiGatewayDocument(routes, { title: 'T', description: 'D', integrationUri: uri });

    // Assess
    const proxy = (group: string) => ({ responses: {}, 'x-amazon-apigateway-integration': { type: 'aws_proxy', httpMethod: 'POST', uri: uri(group) } });
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
    expect(document).toEqual({
      openapi: '3.0.1',
      info: { title: 'T', description: 'D', version: '1' },
      paths: {
        '/api/v4/projects/{id}/uploads': { parameters: id, post: proxy('uploads') },
        '/api/v4/users/{id}': { parameters: id, get: proxy('users'), head: proxy('users'), delete: proxy('users') },
        '/{path+}': { parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }], get: proxy('web'), head: proxy('web') },
      },
      'x-amazon-apigateway-binary-media-types': ['*/*'],
      'x-amazon-apigateway-gateway-responses': expect.objectContaining({
        MISSING_AUTHENTICATION_TOKEN: expect.objectContaining({ statusCode: '404' }),
      }),
      'x-amazon-apigateway-request-validators': { params: { validateRequestParameters: true, validateRequestBody: false } },
      'x-amazon-apigateway-request-validator': 'params',
    });
  });

  it('validates the required (path) parameters of every operation at the gateway, and leaves bodies to the functions', () => {
    // Act
    const document = apiGatewayDocument(routes, { title: 'T', description: 'D', integrationUri: uri });
    const validators = document['x-amazon-apigateway-request-validators'] as Record<string, { validateRequestParameters: boolean; validateRequestBody: boolean }>;
    const validator = document['x-amazon-apigateway-request-validator'] as string;

    // Assess: the document-wide validator exists and checks parameters only (bodies are binary, zod-validated).
    expect(validators[validator]).toEqual({ validateRequestParameters: true, validateRequestBody: false });
    for (const item of Object.values(document.paths)) {
      for (const parameter of item.parameters as { required: boolean }[]) expect(parameter.required).toBe(true);
    }
  });

  it('refuses two routes with the same method and resource', () => {
    // Act
    const act = () => routesByResource([parseRouteKey('users', 'GET /users'), parseRouteKey('groups', 'GET /users')]);

    // Assess
    expect(act).toThrow(/declared twice/);
  });

  it('refuses children of a greedy parameter', () => {
    // Act
    const act = () => routesByResource([parseRouteKey('web', 'GET /:path+/raw')]);

    // Assess
    expect(act).toThrow(/greedy path parameter cannot have children/);
  });

  it('serves HEAD with the GET route, and only where GET exists', () => {
    // Prepare
    const methods = new Map([['GET', 'get-route'], ['POST', 'post-route']]);

    // Assess
    expect(servingRoute(methods, 'HEAD')).toBe('get-route');
    expect(servingRoute(methods, 'post')).toBe('post-route');
    expect(servingRoute(new Map([['POST', 'post-route']]), 'HEAD')).toBeUndefined();
  });

  it('counts the API Gateway resources of a set of paths: the root, each path and its ancestors', () => {
    // Act
    const resources = gatewayResources(['/api/v4/users/{id}', '/api/v4/users', '/{path+}']);

    // Assess
    expect(resources).toEqual(['/', '/api', '/api/v4', '/api/v4/users', '/api/v4/users/{id}', '/{path+}']);
  });
});
