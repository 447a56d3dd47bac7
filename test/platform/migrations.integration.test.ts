/**
 * Data migrations that outlast one invocation (`shared/platform/dynamo/migrations.ts`): a run
 * stops at a checkpoint when its time is up and the next run resumes there; one run at a time
 * holds a migration; a dead run's lease runs out; the record is written only once the step has
 * gone through everything. And the jobs worker of the running service finishes a deploy's
 * migrations (`functions/bootstrap/migrations.ts`). Against the table the local runtime serves.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eachProject, MIGRATION_NAMES, MIGRATIONS_JOB, migrationsJobTarget } from '../../functions/bootstrap/migrations';
import { keys } from '../../shared/platform/dynamo/keys';
import { MIGRATION_LEASE_MS, runOnce, type MigrationRun } from '../../shared/platform/dynamo/migrations';
import { getItem } from '../../shared/platform/dynamo/query';
import { enqueueJob, jobKeys } from '../../shared/platform/jobs';
import { isLocalRuntime } from '../support/api';
import { createGroup, createProject, createUser, unique } from '../support/fixtures';
import { backfillGroupSearchEntries } from '../../shared/namespaces';
import { backfillProjectSearchEntries } from '../../shared/projects';
import { backfillUserSearchEntries } from '../../shared/users';

const WAIT = { timeout: 20_000, interval: 100 };

/** A step over the units 1..`units`, checkpointing after each (a stand-in for a migration's projects). */
function countingStep(units: number, visited: number[]) {
  return async (run: MigrationRun): Promise<number | undefined> => {
    let items = run.resumed?.items ?? 0;
    for (let unit = run.resumed ? Number(run.resumed.after) + 1 : 1; unit <= units; unit++) {
      visited.push(unit);
      items += 10;
      if (!(await run.checkpoint(String(unit), items))) return undefined;
    }
    return items;
  };
}

/** A clock 20 s later at each reading: every checkpoint is written (they are held back for 10 s). */
function jumpingClock(): () => number {
  let t = Date.now();
  return () => (t += 20_000);
}

describe.runIf(isLocalRuntime())('a data migration over several runs', () => {
  it('stops at a checkpoint when its time is up, resumes there, and is recorded only once it went through everything', async () => {
    // Arrange: the first run's time is up after its second unit
    const name = unique('migration');
    const visited: number[] = [];
    let checks = 0;

    // Act
    const first = await runOnce(name, countingStep(5, visited), { timeUp: () => ++checks >= 2 });
    const recordAfterFirst = await getItem(keys.migration(name));
    const second = await runOnce(name, countingStep(5, visited));
    const third = await runOnce(name, countingStep(5, visited));

    // Assert: nothing done twice, the items carried over, then skipped
    expect(first).toBe('stopped');
    expect(recordAfterFirst).toBeUndefined();
    expect(second).toEqual({ ran: 50 });
    expect(third).toBe('skipped');
    expect(visited).toEqual([1, 2, 3, 4, 5]);
    expect(await getItem(keys.migration(name))).toMatchObject({ name, count: 50 });
    expect(await getItem(keys.migrationProgress(name))).toBeUndefined();
  });

  it('lets one run at a time work on a migration: the others are told it is busy and do nothing', async () => {
    // Arrange: a step that waits until released, holding the migration meanwhile
    const name = unique('migration');
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const step = async () => {
      calls++;
      await held;
      return 1;
    };

    // Act: one run starts; four more start while it holds the migration
    const holder = runOnce(name, step);
    await vi.waitFor(() => expect(calls).toBe(1), WAIT);
    const others = await Promise.all([1, 2, 3, 4].map(() => runOnce(name, step)));
    release();

    // Assert
    expect(others).toEqual(['busy', 'busy', 'busy', 'busy']);
    expect(await holder).toEqual({ ran: 1 });
    expect(calls).toBe(1);
  });

  it("takes over a dead run's migration once its lease has run out, from that run's last checkpoint", async () => {
    // Arrange: a run that checkpointed unit 1 and then died (never gave the migration back)
    const name = unique('migration');
    const visited: number[] = [];
    void runOnce(
      name,
      async (run) => {
        await run.checkpoint('1', 10);
        return new Promise<number>(() => undefined);
      },
      { now: jumpingClock() },
    );
    await vi.waitFor(async () => expect(await getItem(keys.migrationProgress(name))).toMatchObject({ after: '1' }), WAIT);

    // Act: a run now, and one after the lease
    const now = await runOnce(name, countingStep(3, visited));
    const later = await runOnce(name, countingStep(3, visited), { now: () => Date.now() + 2 * MIGRATION_LEASE_MS });

    // Assert
    expect(now).toBe('busy');
    expect(later).toEqual({ ran: 30 });
    expect(visited).toEqual([2, 3]);
  });

  it('gives the migration back when its step fails, and the next run resumes at the last checkpoint', async () => {
    // Arrange
    const name = unique('migration');
    const visited: number[] = [];
    const failing = async (run: MigrationRun) => {
      visited.push(1);
      await run.checkpoint('1', 10);
      throw new Error('the table went away');
    };

    // Act
    await expect(runOnce(name, failing, { now: jumpingClock() })).rejects.toThrow('the table went away');
    const again = await runOnce(name, countingStep(3, visited));

    // Assert
    expect(again).toEqual({ ran: 30 });
    expect(visited).toEqual([1, 2, 3]);
  });
});

describe.runIf(isLocalRuntime())('a migration over every project', () => {
  const mine: number[] = [];

  beforeAll(async () => {
    const owner = await createUser();
    for (let i = 0; i < 3; i++) mine.push((await createProject(owner.token)).id);
  });

  it('visits the projects in id order, each once, over runs stopped after every project', async () => {
    // Arrange
    const name = unique('migration');
    const visited: number[] = [];
    const step = eachProject(async (projectId) => {
      visited.push(projectId);
      return 1;
    });

    // Act: two runs whose time is up at once (one project each), then one to the end
    const first = await runOnce(name, step, { timeUp: () => true });
    const afterFirst = visited.length;
    const second = await runOnce(name, step, { timeUp: () => true });
    const afterSecond = visited.length;
    const last = await runOnce(name, step);

    // Assert: strictly increasing ids (none twice), the projects of this file among them (other
    // files create and delete projects meanwhile)
    expect([first, second, last]).toEqual(['stopped', 'stopped', { ran: visited.length }]);
    expect([afterFirst, afterSecond]).toEqual([1, 2]);
    expect(visited.every((id, i) => i === 0 || id > visited[i - 1])).toBe(true);
    expect(visited).toEqual(expect.arrayContaining(mine));
  });
});

describe.runIf(isLocalRuntime())('the search backfills of users, projects and groups', () => {
  it.each([
    ['users', backfillUserSearchEntries],
    ['projects', backfillProjectSearchEntries],
    ['groups', backfillGroupSearchEntries],
  ])('walk the %s in id order and resume after the last one a stopped run finished', async (_what, backfill) => {
    // Arrange: there is at least one of each beyond the first (other files make more)
    const owner = await createUser();
    await createProject(owner.token);
    await createGroup(owner.token);
    await createGroup(owner.token);
    const name = unique('migration');
    const progress = async () => Number((await getItem(keys.migrationProgress(name)))!.after);

    // Act: two runs whose time is up after their first item
    const first = await runOnce(name, backfill, { timeUp: () => true });
    const firstAfter = await progress();
    const second = await runOnce(name, backfill, { timeUp: () => true });

    // Assert: each did one, the second the next one in id order
    expect([first, second]).toEqual(['stopped', 'stopped']);
    expect(await getItem(keys.migrationProgress(name))).toMatchObject({ items: 2 });
    expect(await progress()).toBeGreaterThan(firstAfter);
  });
});

describe.runIf(isLocalRuntime())("the jobs worker finishes a deploy's migrations", () => {
  it("runs a migrations job of this release's migrations and removes it", async () => {
    // Arrange: the job a deploy's bootstrap queues when it has no time left (here every migration
    // is recorded already, so the run checks each and is done)
    const target = migrationsJobTarget([...MIGRATION_NAMES, unique('test-run')]);

    // Act
    await enqueueJob(MIGRATIONS_JOB, target);

    // Assert
    await vi.waitFor(async () => expect(await getItem(jobKeys.job(MIGRATIONS_JOB, target))).toBeUndefined(), WAIT);
  });

  it('names a list of migrations by one job target, another list by another', () => {
    expect(migrationsJobTarget()).toBe(migrationsJobTarget([...MIGRATION_NAMES]));
    expect(migrationsJobTarget([...MIGRATION_NAMES, 'next-v1'])).not.toBe(migrationsJobTarget());
    expect(Number.isSafeInteger(migrationsJobTarget())).toBe(true);
  });
});
