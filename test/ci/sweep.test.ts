/**
 * The CI scheduler's decisions (pure: when a pending or running job is dropped, with which
 * reason, and when it is looked at next), the index entries a job's changes write (against a
 * mocked table), and the local stand-in for the EventBridge schedule.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { inBackgroundInvocation } from '../../infra/local/invocations';
import { ciSchedulerIntervalMs } from '../../infra/local/runtime';
import { startSchedule } from '../../infra/local/scheduler';
import { artifactsExpired, decideDeadline, nextDeadline, SCHEDULER_SETTINGS, type DeadlineJob } from '../../shared/ci/config/scheduler';
import { CI_SCHEDULE_SHARDS, ciCollections, ciIndexKeys } from '../../shared/ci/store/keys';
import { updateJob } from '../../shared/ci/store/pipelines';
import { useMockedTable } from '../support/mocked-table';

const T0 = '2026-03-01T10:00:00.000Z';
const at = (offsetSeconds: number) => new Date(Date.parse(T0) + offsetSeconds * 1000);
const HOUR = 3600;
const DAY = 24 * HOUR;

const pending = (overrides: Partial<DeadlineJob> = {}): DeadlineJob => ({ status: 'pending', createdAt: T0, queuedAt: T0, startedAt: null, spec: {}, ...overrides });
const running = (overrides: Partial<DeadlineJob> = {}): DeadlineJob => ({ status: 'running', createdAt: T0, queuedAt: T0, startedAt: T0, touchedAt: T0, spec: {}, ...overrides });

describe('thresholds', () => {
  it("are GitLab's: an hour stuck, a day outdated, an hour silent, one-hour default timeout, 15 minutes' grace", () => {
    expect(SCHEDULER_SETTINGS).toEqual({
      pendingStuckSeconds: HOUR,
      pendingOutdatedSeconds: DAY,
      runningSilentSeconds: HOUR,
      defaultJobTimeoutSeconds: HOUR,
      timeoutGraceSeconds: 900,
      runnerOnlineSeconds: 2 * HOUR,
    });
  });
});

describe('a pending job', () => {
  it('is first looked at an hour after it was queued', () => {
    expect(nextDeadline(pending())).toBe(at(HOUR).toISOString());
    expect(decideDeadline(pending(), at(HOUR - 1), false)).toEqual({ action: 'wait', until: at(HOUR).toISOString() });
  });

  it('is dropped as stuck after an hour when no online runner could take it', () => {
    expect(decideDeadline(pending(), at(HOUR), false)).toEqual({ action: 'drop', reason: 'stuck_or_timeout_failure' });
  });

  it('waits while a runner could take it, looked at again hourly', () => {
    expect(decideDeadline(pending(), at(HOUR), true)).toEqual({ action: 'wait', until: at(2 * HOUR).toISOString() });
    expect(decideDeadline(pending(), at(DAY - 10), true)).toEqual({ action: 'wait', until: at(DAY).toISOString() });
  });

  it('is dropped after a day pending, even when a runner could take it', () => {
    expect(decideDeadline(pending(), at(DAY), true)).toEqual({ action: 'drop', reason: 'stuck_or_timeout_failure' });
  });

  it('counts from when it was queued (a manual job played late), not from when it was created', () => {
    const played = pending({ createdAt: at(-5 * DAY).toISOString(), queuedAt: T0 });
    expect(decideDeadline(played, at(HOUR - 1), false).action).toBe('wait');
  });
});

describe('a running job', () => {
  it('is looked at when its runner has been silent for an hour, if that comes before its timeout', () => {
    expect(nextDeadline(running({ spec: { timeout: 3 * HOUR } }))).toBe(at(HOUR).toISOString());
  });

  it('is dropped as stuck when its runner has been silent for an hour', () => {
    expect(decideDeadline(running({ spec: { timeout: 3 * HOUR } }), at(HOUR), false)).toEqual({ action: 'drop', reason: 'stuck_or_timeout_failure' });
  });

  it('is moved on, not dropped, when it was heard from meanwhile', () => {
    const heard = running({ spec: { timeout: 3 * HOUR }, touchedAt: at(50 * 60).toISOString() });
    expect(decideDeadline(heard, at(HOUR), false)).toEqual({ action: 'wait', until: at(50 * 60 + HOUR).toISOString() });
  });

  it('is dropped with job_execution_timeout 15 minutes after its timeout, however chatty its runner', () => {
    const chatty = running({ spec: { timeout: 600 }, touchedAt: at(600 + 899).toISOString() });
    expect(nextDeadline(chatty)).toBe(at(600 + 900).toISOString());
    expect(decideDeadline(chatty, at(600 + 899), false).action).toBe('wait');
    expect(decideDeadline(chatty, at(600 + 900), false)).toEqual({ action: 'drop', reason: 'job_execution_timeout' });
  });

  it("takes the project's one-hour build timeout when .gitlab-ci.yml sets none", () => {
    const chatty = running({ touchedAt: at(HOUR).toISOString() });
    expect(decideDeadline(chatty, at(HOUR + 899), false).action).toBe('wait');
    expect(decideDeadline(chatty, at(HOUR + 900), false)).toEqual({ action: 'drop', reason: 'job_execution_timeout' });
  });

  it('goes by the timeout fixed when it was taken (project build_timeout, runner cap) over its timeout:', () => {
    const taken = running({ timeout: 600, spec: { timeout: 3 * HOUR }, touchedAt: at(600).toISOString() });
    expect(nextDeadline(taken)).toBe(at(600 + 900).toISOString());
    expect(decideDeadline(taken, at(600 + 900), false)).toEqual({ action: 'drop', reason: 'job_execution_timeout' });
  });

  it('answers timeout rather than silence when both passed', () => {
    expect(decideDeadline(running({ spec: { timeout: 60 } }), at(2 * HOUR), false)).toEqual({ action: 'drop', reason: 'job_execution_timeout' });
  });

  it('follows shortened thresholds', () => {
    const settings = { ...SCHEDULER_SETTINGS, runningSilentSeconds: 5, timeoutGraceSeconds: 0 };
    expect(decideDeadline(running({ spec: { timeout: 60 } }), at(5), false, settings)).toEqual({ action: 'drop', reason: 'stuck_or_timeout_failure' });
  });
});

describe.each(['created', 'success', 'failed', 'canceled', 'skipped', 'manual'] as const)('a %s job', (status) => {
  it('has no deadline, and a leftover entry is released', () => {
    expect(nextDeadline(pending({ status }))).toBeNull();
    expect(decideDeadline(pending({ status }), at(10 * DAY), false)).toEqual({ action: 'release' });
  });
});

describe('artifacts expiry', () => {
  it('is past at its expiry time, never when kept or absent', () => {
    expect(artifactsExpired({ expireAt: T0 }, at(0))).toBe(true);
    expect(artifactsExpired({ expireAt: T0 }, at(-1))).toBe(false);
    expect(artifactsExpired({ expireAt: null }, at(DAY))).toBe(false);
    expect(artifactsExpired(null, at(DAY))).toBe(false);
  });
});

describe('index keys', () => {
  it('spreads deadlines over the shards by job id, sorted by time then id', () => {
    expect(ciIndexKeys.jobDeadline(9, T0)).toEqual({ GSI3PK: `CI_DEADLINES#${9 % CI_SCHEDULE_SHARDS}`, GSI3SK: `${T0}#000000000009` });
    expect(ciIndexKeys.artifactExpiry(10, T0)).toEqual({ GSI4PK: `CI_ARTIFACT_EXPIRY#${10 % CI_SCHEDULE_SHARDS}`, GSI4SK: `${T0}#000000000010` });
  });

  it('reads what is due up to and including now, nothing later', () => {
    const due = ciCollections.dueDeadlines(1, T0);
    expect(due).toMatchObject({ index: 'GSI3', partitionValue: 'CI_DEADLINES#1' });
    expect(ciIndexKeys.jobDeadline(1, T0).GSI3SK < due.below!).toBe(true);
    expect(ciIndexKeys.jobDeadline(999_999, at(-1).toISOString()).GSI3SK < due.below!).toBe(true);
    expect(ciIndexKeys.jobDeadline(1, at(0.001).toISOString()).GSI3SK < due.below!).toBe(false);
    expect(ciCollections.expiredArtifacts(2, T0)).toMatchObject({ index: 'GSI4', partitionValue: 'CI_ARTIFACT_EXPIRY#2', below: due.below });
  });
});

describe('index entries written with a job change', () => {
  const table = useMockedTable('ci-sweep-unit');
  const job = { id: 42, pipelineId: 7, projectId: 3, createdAt: T0, startedAt: null, spec: { timeout: 600 } };
  const sent = () => table.commandCalls(UpdateCommand)[0].args[0].input;
  const attributes = () => {
    const input = sent();
    const names = input.ExpressionAttributeNames ?? {};
    const values = input.ExpressionAttributeValues ?? {};
    const [setPart, removePart = ''] = input.UpdateExpression!.replace(/^SET /, '').split(' REMOVE ');
    const set = Object.fromEntries(setPart.split(', ').map((clause) => clause.split(' = ')).map(([name, value]) => [names[name] ?? name, values[value]]));
    return { set, removed: removePart ? removePart.split(', ') : [] };
  };

  it('puts a job that becomes pending in the deadline index, an hour after it was queued', async () => {
    table.on(UpdateCommand).resolves({});
    await updateJob(job, { status: 'pending', queuedAt: T0 }, ['created']);
    const { set } = attributes();
    expect(set).toMatchObject({ GSI2PK: 'CI_QUEUE#3', ...ciIndexKeys.jobDeadline(42, at(HOUR).toISOString()) });
  });

  it('takes a job that ends out of the deadline index', async () => {
    table.on(UpdateCommand).resolves({});
    await updateJob(job, { status: 'canceled', finishedAt: T0 }, ['running']);
    expect(attributes().removed).toEqual(expect.arrayContaining(['GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK']));
  });

  it('puts expiring artifacts in the expiry index and takes kept ones out', async () => {
    table.on(UpdateCommand).resolves({});
    await updateJob(job, { artifacts: { filename: 'a.zip', size: 1, format: 'zip', expireAt: T0 } });
    expect(attributes().set).toMatchObject(ciIndexKeys.artifactExpiry(42, T0));
    table.reset();
    table.on(UpdateCommand).resolves({});
    await updateJob(job, { artifacts: { filename: 'a.zip', size: 1, format: 'zip', expireAt: null } });
    expect(attributes().removed).toEqual(['GSI4PK', 'GSI4SK']);
  });

  it('leaves the indexes alone on a trace append, only stamping touchedAt', async () => {
    table.on(UpdateCommand).resolves({});
    await updateJob(job, { traceLength: 10 }, ['running']);
    const { set, removed } = attributes();
    expect(Object.keys(set).filter((name) => name.startsWith('GSI'))).toEqual([]);
    expect(removed).toEqual([]);
    expect(set.touchedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });
});

describe('the local schedule', () => {
  it('runs the handler at its interval, never two runs at once, until stopped', async () => {
    let active = 0;
    let overlapped = false;
    const handler = vi.fn(async () => {
      active++;
      overlapped ||= active > 1;
      await new Promise((resolve) => setTimeout(resolve, 15));
      active--;
    });
    const schedule = startSchedule({ handler, intervalMs: 5, runAtStart: true });
    await vi.waitFor(() => expect(handler.mock.calls.length).toBeGreaterThanOrEqual(3));
    await schedule.stop();
    const calls = handler.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(handler.mock.calls.length).toBe(calls);
    expect(overlapped).toBe(false);
    expect(handler.mock.calls[0]).toEqual([expect.objectContaining({ source: 'aws.events', 'detail-type': 'Scheduled Event' })]);
  });

  it('runs each call as a background invocation, apart from the caller (the benchmarks do not count its calls as a request\'s)', async () => {
    const seen: boolean[] = [];
    const handler = vi.fn(async () => void seen.push(inBackgroundInvocation()));
    const schedule = startSchedule({ handler, intervalMs: 5, runAtStart: true });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    await schedule.stop();
    expect(seen.every(Boolean)).toBe(true);
    expect(inBackgroundInvocation()).toBe(false);
  });

  it('keeps going after a failing run', async () => {
    const handler = vi.fn().mockRejectedValueOnce(new Error('table unavailable')).mockResolvedValue(undefined);
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: vi.fn() };
    const schedule = startSchedule({ handler, intervalMs: 5, runAtStart: true, logger });
    await vi.waitFor(() => expect(handler.mock.calls.length).toBeGreaterThanOrEqual(2));
    await schedule.stop();
    expect(logger.error).toHaveBeenCalledWith('scheduled run failed; the next one retries', expect.anything());
  });

  it('runs every minute unless CI_SCHEDULER_INTERVAL_SECONDS says otherwise (0: off)', () => {
    expect(ciSchedulerIntervalMs({})).toBe(60_000);
    expect(ciSchedulerIntervalMs({ CI_SCHEDULER_INTERVAL_SECONDS: '2' })).toBe(2000);
    expect(ciSchedulerIntervalMs({ CI_SCHEDULER_INTERVAL_SECONDS: '0' })).toBe(0);
    expect(ciSchedulerIntervalMs({ CI_SCHEDULER_INTERVAL_SECONDS: 'soon' })).toBe(60_000);
  });
});
