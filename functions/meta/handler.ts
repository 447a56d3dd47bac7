/** Service metadata: `GET /version`, as GitLab answers it (authentication required). */
import { config } from '../../shared/config';
import { createGroupHandler } from '../../shared/http/group-handler';
import { ok } from '../../shared/http/response';
import { noParams, route } from '../../shared/http/route';

export const handler = createGroupHandler('meta', {
  'GET /version': route({
    params: noParams,
    handler: async () => ok({ version: config().version, revision: config().revision }),
  }),
});
