/**
 * The unit files share a worker's modules (`isolate: false` in vitest.config.ts), so what one file
 * sets up must not reach the next:
 * - every file runs with the features wired as every API function wires them (the removal steps,
 *   hook event forms, todo targets and sources registered by `functions/api.ts` and the features'
 *   own modules), whichever files ran before it in its worker;
 * - after each file the SDK clients and the configuration a test swapped in are dropped, so the
 *   next file starts from the defaults (its own setup, or the environment's endpoints), and the
 *   data migrations seen recorded on its (mocked) table are forgotten.
 */
import { afterAll } from 'vitest';
import '../../functions/api';
import { resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';
import { forgetMigrationsSeen } from '../../shared/platform/dynamo/migrations';
import { setS3Client } from '../../shared/platform/s3/client';

afterAll(() => {
  setClients({ db: undefined });
  setS3Client(undefined);
  resetConfig();
  forgetMigrationsSeen();
});
