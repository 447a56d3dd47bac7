/**
 * A tiny HTTP client for integration tests. It talks to whatever base URL the global setup
 * provided (local runtime or a deployed stage), so tests never know which one they run against.
 */
import { inject } from 'vitest';

/** Base URL of the service, without `/api/v4`. */
export function baseUrl(): string {
  const url = inject('apiUrl') ?? process.env.API_URL;
  if (!url) throw new Error('no API URL: run the integration project (its global setup provides one) or set API_URL');
  return url;
}

/**
 * Whether the tests run against the local runtime (started by the global setup, or by hand on this
 * machine): tests that receive webhooks on a local port, or call the features' commands against
 * the same table in-process, need it and are skipped against a deployed stage.
 */
export const isLocalRuntime = (): boolean => ['127.0.0.1', 'localhost'].includes(new URL(baseUrl()).hostname);

/** Root's personal access token (scope `api`). */
export function rootToken(): string {
  const token = inject('rootToken') ?? process.env.ROOT_TOKEN;
  if (!token) throw new Error('no root token: run the integration project (its global setup provides one) or set ROOT_TOKEN');
  return token;
}

export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Sent as `PRIVATE-TOKEN`; omit for an anonymous request. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** URL-encoded (URLSearchParams) or multipart (FormData) form. */
  form?: URLSearchParams | FormData;
  /** Appended to the query string; arrays repeat the name (add `[]` to the name yourself). */
  query?: Record<string, QueryValue> | URLSearchParams;
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, otherwise the text ('' when empty). */
  body: T;
}

/**
 * `api('/users/1', { token: rootToken() })` → `GET ${baseUrl()}/api/v4/users/1`.
 * `path` is used as given, so encode path segments yourself (`encodeURIComponent('group/project')`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api<T = any>(path: string, options: ApiRequestOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(`${baseUrl()}/api/v4${path}`);
  if (options.query instanceof URLSearchParams) {
    for (const [name, value] of options.query) url.searchParams.append(name, value);
  } else if (options.query) {
    for (const [name, value] of Object.entries(options.query)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
  }

  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set('PRIVATE-TOKEN', options.token);
  let body: string | URLSearchParams | FormData | undefined;
  if (options.body !== undefined) {
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  } else if (options.form !== undefined) {
    // fetch sets the content type (with the multipart boundary) itself.
    body = options.form;
  }

  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (text && /[/+]json\b/i.test(type)) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Leave it as text: the test will show what came back.
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
