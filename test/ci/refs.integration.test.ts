/**
 * A ref's latest successful pipeline (`shared/ci/store/refs.ts`) against DynamoDB Local: pipelines
 * of one ref succeeding at once leave the newest as the latest whatever the order of their
 * writes, and a hand-over to an older pipeline loses to a newer success.
 */
import { describe, expect, it } from 'vitest';
import { clearLatestSuccessfulPipeline, latestSuccessfulPipelineId, setLatestSuccessfulPipeline } from '../../shared/ci/store/refs';
import { isLocalRuntime } from '../support/api';

describe.skipIf(!isLocalRuntime())("a ref's latest successful pipeline", () => {
  it('is the newest of pipelines succeeding concurrently; each one replaced is reported once, to a newer one', async () => {
    // Prepare: a project id of this test's own.
    const projectId = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    const ids = [7, 3, 12, 1, 9, 5, 11, 2, 10, 4, 8, 6];

    // Act
    const replaced = await Promise.all(ids.map((id) => setLatestSuccessfulPipeline(projectId, 'main', id)));

    // Assess
    expect(await latestSuccessfulPipelineId(projectId, 'main')).toBe(12);
    const reported = replaced.filter((previous): previous is number => typeof previous === 'number');
    expect(new Set(reported).size).toBe(reported.length);
    replaced.forEach((previous, index) => {
      if (typeof previous === 'number') expect(previous).toBeLessThan(ids[index]);
    });
    expect(await latestSuccessfulPipelineId(projectId, 'other')).toBeUndefined();
  });

  it('hands over to an older pipeline, or to none, only while the one replaced is still the latest', async () => {
    // Prepare
    const projectId = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    await setLatestSuccessfulPipeline(projectId, 'main', 20);

    // Act: a hand-over from 19 (no longer the latest) and a newer success race a hand-over from 20.
    const [stale, newer] = await Promise.all([setLatestSuccessfulPipeline(projectId, 'main', 5, 19), setLatestSuccessfulPipeline(projectId, 'main', 21)]);
    const staleClear = await clearLatestSuccessfulPipeline(projectId, 'main', 20);
    const handedOver = await setLatestSuccessfulPipeline(projectId, 'main', 18, 21);
    const cleared = await clearLatestSuccessfulPipeline(projectId, 'main', 18);

    // Assess
    expect([stale, newer, staleClear, handedOver, cleared]).toEqual([false, 20, false, 21, true]);
    expect(await latestSuccessfulPipelineId(projectId, 'main')).toBeUndefined();
  });
});
