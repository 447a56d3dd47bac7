/**
 * The jobs worker (`functions/jobs/handler.ts`) with work that goes on over several invocations
 * (data migrations): a run tells its work when the invocation is nearly over, and a job whose run
 * stopped part way is queued again at once, in its next round, instead of being removed. A mocked
 * table: the worker's writes are what is checked.
 */
import { DeleteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { handler, work } from '../../functions/jobs/handler';
import { JOB_TYPE, jobKeys } from '../../shared/platform/jobs';
import { useMockedTable } from '../support/mocked-table';

const mock = useMockedTable('jobs-worker-test');
const KIND = 'test-long-work';

/** The stream record of a job queued in round 2. */
const queued = (): DynamoDBStreamEvent => {
  const job = { ...jobKeys.job(KIND, 7), type: JOB_TYPE, kind: KIND, targetId: 7, phase: 'queued', round: 2, attempts: 2, createdAt: '2026-01-01T00:00:00.000Z', leaseUntil: '2026-01-01T00:02:00.000Z' };
  return { Records: [{ eventName: 'MODIFY', dynamodb: { NewImage: marshall(job) as never } }] };
};

/** The table: the claim (round 2, queued) holds and answers the running job; other updates hold. */
function tableClaims() {
  mock.on(UpdateCommand).callsFake((input: UpdateCommandInput) =>
    input.ConditionExpression === 'phase = :queued AND round = :round'
      ? { Attributes: { ...input.Key, kind: KIND, targetId: 7, phase: 'running', round: 2, attempts: 3, createdAt: '2026-01-01T00:00:00.000Z', leaseUntil: input.ExpressionAttributeValues?.[':lease'] } }
      : {},
  );
}

afterEach(() => {
  delete work[KIND];
});

describe('work that stops part way', () => {
  it('is queued again at once in its next round, and not removed', async () => {
    // Arrange
    tableClaims();
    work[KIND] = async () => 'continue';

    // Act
    const report = await handler(queued(), { getRemainingTimeInMillis: () => 600_000 });

    // Assert
    expect(report).toMatchObject({ continued: 1, done: 0, failed: 0 });
    const [, again] = mock.commandCalls(UpdateCommand).map(({ args: [{ input }] }) => input);
    expect(again.ConditionExpression).toBe('phase = :running AND round = :round');
    expect(again.ExpressionAttributeValues).toMatchObject({ ':queued': 'queued', ':round': 2, ':next': 3 });
    expect(Date.parse(again.ExpressionAttributeValues![':lease'])).toBeGreaterThan(Date.now());
    expect(mock.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('is told when the invocation is nearly over, and never without an invocation context', async () => {
    // Arrange
    tableClaims();
    const told: boolean[] = [];
    work[KIND] = async (_job, timeUp) => void told.push(timeUp());

    // Act: 10 minutes left, then 1 minute left, then no context (a direct call: no limit)
    await handler(queued(), { getRemainingTimeInMillis: () => 600_000 });
    await handler(queued(), { getRemainingTimeInMillis: () => 60_000 });
    await handler(queued());

    // Assert: work that finishes is removed as before
    expect(told).toEqual([false, true, false]);
    expect(mock.commandCalls(DeleteCommand)).toHaveLength(3);
  });
});
