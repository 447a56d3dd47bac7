/** What the merge request integration tests share: projects with branches made through the commits API. */
import { expect } from 'vitest';
import { api } from '../support/api';

export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const REPORTER = 20;
export const GUEST = 10;

export interface Action {
  action: 'create' | 'update' | 'delete';
  file_path: string;
  content?: string;
}

/** A commit on `branch` (created from `start` when given) through the commits API (201 asserted). */
export async function commit(projectId: number, token: string, branch: string, files: Record<string, string>, options: { start?: string; message?: string; update?: boolean } = {}) {
  const actions: Action[] = Object.entries(files).map(([file_path, content]) => ({ action: options.update ? 'update' : 'create', file_path, content }));
  const response = await api(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch, commit_message: options.message ?? `change ${Object.keys(files).join(', ')}`, actions, ...(options.start ? { start_branch: options.start } : {}) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; parent_ids: string[] };
}

/** The head of a branch. */
export async function head(projectId: number, token: string, branch: string): Promise<string> {
  const response = await api(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.commit.id;
}

/** `/projects/:id/merge_requests<path>`. */
export const mrs = (projectId: number, path = '') => `/projects/${projectId}/merge_requests${path}`;

/** Opens a merge request (201 asserted). */
export async function openMergeRequest(projectId: number, token: string, body: Record<string, unknown>) {
  const response = await api(mrs(projectId), { token, body: { title: 'A change', target_branch: 'main', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}
