/** Service metadata: `GET /version`, as GitLab answers it (authentication required). */
import { config } from '../../shared/platform/config';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { ok } from '../../shared/platform/http/response';
import { noParams, route } from '../../shared/platform/http/route';

export const handler = createGroupHandler('meta', {
  'GET /version': route({
    params: noParams,
    handler: async () => ok({ version: config().version, revision: config().revision }),
  }),
});
