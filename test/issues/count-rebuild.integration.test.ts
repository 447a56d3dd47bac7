/**
 * The rebuild of a project's issue counts (`reindexProjectIssues`, the data migration for issues
 * written before the counts existed) beside issue writes: a write that lands while the rebuild
 * counts is neither lost nor counted twice, so `X-Total` stays exact. The write is made at the
 * worst moment, right after the rebuild has read the issues and before it sets the counts (a
 * middleware on this process's DynamoDB client, so local runtime only).
 */
import type { Pluggable } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { reindexProjectIssues } from '../../shared/issues';
import { db } from '../../shared/platform/dynamo/client';
import { api, isLocalRuntime } from '../support/api';
import { openIssue, ownedProject, unique, type OwnedProject } from '../support/fixtures';

async function total(project: OwnedProject, query: Record<string, string>): Promise<string | null> {
  const response = await api(`/projects/${project.id}/issues`, { token: project.owner.token, query: { per_page: 1, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.headers.get('x-total');
}

/** Runs `write` once, right after the first read of the project's issue items returns. */
async function rebuildWithWriteDuringIt(projectId: number, write: () => Promise<void>): Promise<number> {
  let done = false;
  const name = `raceRebuild${projectId}`;
  const plugin: Pluggable<object, object> = {
    applyToStack: (stack) =>
      stack.add(
        (next) => async (args) => {
          const result = await next(args);
          const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues;
          if (!done && values?.[':pk'] === `PROJECT#${projectId}` && values[':prefix'] === 'ISSUE#') {
            done = true;
            await write();
          }
          return result;
        },
        { step: 'initialize', name },
      ),
  };
  db().middlewareStack.use(plugin as never);
  try {
    return await reindexProjectIssues(projectId);
  } finally {
    db().middlewareStack.remove(name);
  }
}

describe.skipIf(!isLocalRuntime())('rebuilding the issue counts while issues are written', () => {
  it('keeps a close made during the rebuild: the totals stay exact', async () => {
    // Arrange
    const project = await ownedProject();
    const label = unique('race');
    const [first] = [await openIssue(project.id, project.owner.token, { labels: label }), await openIssue(project.id, project.owner.token, { labels: label })];

    // Act: the first issue is closed after the rebuild read both as opened
    const seen = await rebuildWithWriteDuringIt(project.id, async () => {
      const closed = await api(`/projects/${project.id}/issues/${first.iid}`, { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
      expect(closed.status).toBe(200);
    });

    // Assert
    expect(seen).toBe(2);
    expect(await total(project, { state: 'opened' })).toBe('1');
    expect(await total(project, { state: 'closed' })).toBe('1');
    expect(await total(project, { state: 'all' })).toBe('2');
    expect(await total(project, { state: 'opened', author_id: String(project.owner.id) })).toBe('1');
  });

  it('keeps an issue opened during the rebuild, counted once', async () => {
    // Arrange
    const project = await ownedProject();
    await openIssue(project.id, project.owner.token);

    // Act
    await rebuildWithWriteDuringIt(project.id, async () => {
      await openIssue(project.id, project.owner.token);
    });

    // Assert
    expect(await total(project, {})).toBe('2');
    expect(await total(project, { state: 'opened' })).toBe('2');
  });
});
