/**
 * Background jobs held back in tests (local runtime only: the test process writes to the same
 * table): a job recorded as already claimed by a worker, so a request that would queue it queues
 * none and no worker runs yet, then released as the sweep releases a lapsed lease.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { getItem } from '../../shared/platform/dynamo/query';
import { JOB_TYPE, jobFromImage, jobKeys, requeueJob } from '../../shared/platform/jobs';

/** Records the job of `kind` for `targetId` as running (leased for ten minutes), with the `options` its worker reads. */
export async function holdJob(kind: string, targetId: number, options: Record<string, unknown> = {}): Promise<void> {
  const leaseUntil = new Date(Date.now() + 10 * 60_000).toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKeys.job(kind, targetId),
        ...jobKeys.byLease(leaseUntil, kind, targetId),
        type: JOB_TYPE,
        kind,
        targetId,
        ...(Object.keys(options).length > 0 ? { options } : {}),
        phase: 'running',
        round: 0,
        attempts: 1,
        createdAt: new Date().toISOString(),
        leaseUntil,
      },
    }),
  );
}

/** Queues the held job again (as the sweep does once a lease ends), so a worker runs it. */
export async function releaseJob(kind: string, targetId: number): Promise<void> {
  const held = jobFromImage((await getItem(jobKeys.job(kind, targetId)))!);
  expect(await requeueJob(held, Date.parse(held.leaseUntil) + 1)).toBe(true);
}
