/**
 * The bootstrap custom resource (`functions/bootstrap/handler.ts`) on a deploy: it runs the data
 * migrations with the time its invocation has left, and hands what it could not finish to the
 * jobs worker instead of failing the deploy on Lambda's 15 minutes. The migrations and the root
 * user are replaced (their own tests cover them); the secret comes from a mocked Secrets Manager.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as MigrationsModule from '../../functions/bootstrap/migrations';
import type { MigrationsOutcome } from '../../functions/bootstrap/migrations';

const migrations: { outcome: MigrationsOutcome; timeUpSeen: boolean[]; handedOver: number } = vi.hoisted(() => ({
  outcome: 'done',
  timeUpSeen: [],
  handedOver: 0,
}));

vi.mock('../../shared/users/bootstrap', () => ({ ensureRootUser: async () => ({ created: false }) }));
vi.mock('../../functions/bootstrap/migrations', async (importOriginal) => ({
  nearlyOver: (await importOriginal<typeof MigrationsModule>()).nearlyOver,
  runMigrations: async ({ timeUp }: { timeUp: () => boolean }) => {
    migrations.timeUpSeen.push(timeUp());
    return migrations.outcome;
  },
  continueMigrationsInBackground: async () => {
    migrations.handedOver++;
  },
}));

const { handler } = await import('../../functions/bootstrap/handler');

const secrets = mockClient(SecretsManagerClient);
afterAll(() => secrets.restore());

const update = { RequestType: 'Update', PhysicalResourceId: 'root-user', ResourceProperties: { RootTokenSecretArn: 'arn:secret' } } as unknown as CloudFormationCustomResourceEvent;
const withMinutesLeft = (minutes: number) => ({ getRemainingTimeInMillis: () => minutes * 60_000 });

beforeEach(() => {
  secrets.reset();
  secrets.on(GetSecretValueCommand).resolves({ SecretString: 'root-token' });
  migrations.timeUpSeen = [];
  migrations.handedOver = 0;
});

describe('the bootstrap on a deploy', () => {
  it('hands the migrations it stopped to the jobs worker and lets the deploy go on', async () => {
    migrations.outcome = 'stopped';

    await expect(handler(update, withMinutesLeft(14))).resolves.toEqual({ PhysicalResourceId: 'root-user' });

    expect(migrations.handedOver).toBe(1);
  });

  it('hands them over too when another run holds one (an earlier release still migrating)', async () => {
    migrations.outcome = 'busy';

    await handler(update, withMinutesLeft(14));

    expect(migrations.handedOver).toBe(1);
  });

  it('queues nothing when every migration is recorded', async () => {
    migrations.outcome = 'done';

    await handler(update, withMinutesLeft(14));

    expect(migrations.handedOver).toBe(0);
  });

  it('tells the migrations that time is up once less than 10 of its 15 minutes are left: an overrun would fail the deploy', async () => {
    await handler(update, withMinutesLeft(14));
    await handler(update, withMinutesLeft(11));
    await handler(update, withMinutesLeft(9));

    expect(migrations.timeUpSeen).toEqual([false, false, true]);
  });
});
