/** What the repository API's integration tests share: commits made through the API, and paths. */
import { expect } from 'vitest';
import { api } from '../../support/api';

export interface Action {
  action: 'create' | 'update' | 'move' | 'delete' | 'chmod';
  file_path: string;
  content?: string;
  previous_path?: string;
  encoding?: 'text' | 'base64';
  last_commit_id?: string;
  execute_filemode?: boolean;
}

/** `POST /projects/:id/repository/commits` (201 asserted); answers the commit. */
export async function commit(projectId: number, token: string, actions: Action[], extra: Record<string, unknown> = {}) {
  const response = await api(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch: 'main', commit_message: `change ${actions.map((a) => a.file_path).join(', ')}`, actions, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; short_id: string; parent_ids: string[]; title: string };
}

/** Files created on `main` in one commit. */
export const createFiles = (projectId: number, token: string, files: Record<string, string>, extra: Record<string, unknown> = {}) =>
  commit(
    projectId,
    token,
    Object.entries(files).map(([file_path, content]) => ({ action: 'create' as const, file_path, content })),
    extra,
  );

/** `/projects/:id/repository<path>`. */
export const repo = (projectId: number, path: string) => `/projects/${projectId}/repository${path}`;

export const enc = encodeURIComponent;
