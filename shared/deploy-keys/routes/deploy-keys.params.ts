/** Parameters of the deploy keys routes. */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';

/**
 * `title` and `key` of a new key, with GitLab's `Key` lengths (255 and 5,000 characters), named as
 * GitLab's answer names them: `deploy_key.title` through a project's link, `title` for the instance's keys.
 */
const keyFields = (prefix: string) => ({
  title: required(p.string({ max: 255, field: `${prefix}title` })),
  key: required(p.string({ max: 5000, field: `${prefix}key` })),
  expires_at: p.dateTime(),
});

export const instanceListParams = z.object({ ...paginationParams, public: p.bool() });
export const instanceCreateParams = z.object(keyFields(''));

export const projectListParams = z.object({ ...idParam, ...paginationParams });
export const projectKeyParams = z.object({ ...idParam, key_id: required(p.int()) });
export const projectCreateParams = z.object({ ...idParam, ...keyFields('deploy_key.'), can_push: p.bool() });
export const projectUpdateParams = z
  .object({ ...idParam, key_id: required(p.int()), title: p.clearableText({ max: 255, field: 'deploy_key.title' }), can_push: p.bool() })
  .superRefine((value, ctx) => {
    if (value.title === undefined && value.can_push === undefined) {
      ctx.addIssue({ code: 'custom', message: 'title, can_push are missing, at least one parameter must be provided' });
    }
  });

export const userKeysParams = z.object({ id: required(p.string()), ...paginationParams });

export const fingerprintParams = z.object({ fingerprint: required(p.string()) });
