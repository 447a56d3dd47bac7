/** Parameters of the system hook routes (GitLab's `lib/api/system_hooks.rb`), and its answers to invalid hooks. */
import type * as z from 'zod';
import { ApiError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { DEFAULT_SYSTEM_HOOK_TRIGGERS, type SystemHookSettings } from '../store/system-hooks';
import { MAX_TOKEN_LENGTH, tokenParam, validateUrl } from './hooks.params';

/** `:hook_id` of `/hooks/:hook_id`. */
export const systemHookIdParam = { hook_id: required(p.int()) };

const settingsParams = {
  name: p.string({ max: 255 }),
  description: p.string({ max: 2048 }),
  token: tokenParam,
  push_events: p.bool(),
  tag_push_events: p.bool(),
  merge_requests_events: p.bool(),
  repository_update_events: p.bool(),
  enable_ssl_verification: p.bool(),
};

/** What `POST /hooks` accepts (`url` required). */
export const createSystemHookParams = { url: required(p.string({ max: 2048 })), ...settingsParams };
/** What `PUT /hooks/:hook_id` accepts (`url` optional: an edit keeps it). */
export const updateSystemHookParams = { url: p.string({ max: 2048 }), ...settingsParams };

type SystemHookParams = Omit<z.output<z.ZodObject<typeof updateSystemHookParams>>, 'url'> & { url?: string };

/**
 * The settings `params` ask for, starting from `current` (a create from GitLab's defaults; an edit
 * keeps what it does not mention). An invalid URL or token is GitLab's 422 (`WebHooks::CreateService`).
 */
export function systemHookSettingsFrom(params: SystemHookParams, current?: SystemHookSettings): SystemHookSettings {
  const url = params.url?.trim() ?? current?.url ?? '';
  if (validateUrl(url)) throw new ApiError(422, { message: 'Invalid url given' });
  if (params.token !== undefined && (/[\r\n]/.test(params.token) || params.token.length > MAX_TOKEN_LENGTH)) throw new ApiError(422, { message: 'Token is invalid' });
  const base = current ?? { ...DEFAULT_SYSTEM_HOOK_TRIGGERS, url, name: null, description: null };
  return {
    url,
    name: params.name ?? base.name ?? null,
    description: params.description ?? base.description ?? null,
    pushEvents: params.push_events ?? base.pushEvents,
    tagPushEvents: params.tag_push_events ?? base.tagPushEvents,
    mergeRequestsEvents: params.merge_requests_events ?? base.mergeRequestsEvents,
    repositoryUpdateEvents: params.repository_update_events ?? base.repositoryUpdateEvents,
    enableSslVerification: params.enable_ssl_verification ?? base.enableSslVerification,
  };
}
