/** Parameters of the project hook routes, and GitLab's model validations of a hook. */
import * as z from 'zod';
import { DEFAULT_HOOK_TRIGGERS, type HookSettings, type HookTriggers } from '../store/hooks';
import { ValidationError } from '../../platform/http/errors';
import { limitedString, p, required } from '../../platform/http/params';
import { HOOK_TEST_TRIGGERS } from '../test-hooks';

/** `:hook_id` of `/projects/:id/hooks/:hook_id`. */
export const hookIdParam = { hook_id: required(p.int()) };

/** `:trigger` of `/projects/:id/hooks/:hook_id/test/:trigger`. */
export const hookTestTriggerParam = { trigger: required(p.oneOf(HOOK_TEST_TRIGGERS)) };

/**
 * The secret `token`. Unlike other strings a blank value is kept: on an edit it removes the
 * secret (absent keeps it), as GitLab stores the empty string it is given.
 */
export const tokenParam = z.preprocess(
  (value) => (value === null ? '' : typeof value === 'number' ? String(value) : value),
  limitedString({ max: 255 }).optional(),
);

/** What `POST /projects/:id/hooks` and `PUT /projects/:id/hooks/:hook_id` accept. */
export const hookParams = {
  url: required(p.string({ max: 2048 })),
  push_events: p.bool(),
  issues_events: p.bool(),
  confidential_issues_events: p.bool(),
  merge_requests_events: p.bool(),
  tag_push_events: p.bool(),
  note_events: p.bool(),
  confidential_note_events: p.bool(),
  job_events: p.bool(),
  pipeline_events: p.bool(),
  /** The specification's name of the request parameter. */
  wiki_events: p.bool(),
  /** Today's GitLab name of it (what current clients send); `wiki_events` wins when both are given. */
  wiki_page_events: p.bool(),
  deployment_events: p.bool(),
  enable_ssl_verification: p.bool(),
  token: tokenParam,
};

type HookParams = z.output<z.ZodObject<typeof hookParams>>;

const MAX_URL_LENGTH = 2048;
export const MAX_TOKEN_LENGTH = 255;

/**
 * The settings `params` ask for, starting from `current` (a create starts from GitLab's
 * defaults; an edit keeps what it does not mention). Throws GitLab's model errors:
 * `{"message":{"url":["is invalid"]}}`.
 */
export function hookSettingsFrom(params: HookParams, current: HookTriggers = DEFAULT_HOOK_TRIGGERS): HookSettings {
  const url = params.url.trim();
  const errors: Record<string, string[]> = {};
  const urlError = validateUrl(url);
  if (urlError) errors.url = [urlError];
  if (params.token !== undefined) {
    // The token becomes a delivery header: a line break would end it.
    if (/[\r\n]/.test(params.token)) errors.token = ['is invalid'];
    else if (params.token.length > MAX_TOKEN_LENGTH) errors.token = [`is too long (maximum is ${MAX_TOKEN_LENGTH} characters)`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  return {
    url,
    pushEvents: params.push_events ?? current.pushEvents,
    issuesEvents: params.issues_events ?? current.issuesEvents,
    // Hooks stored before these flags existed have them absent: off.
    confidentialIssuesEvents: params.confidential_issues_events ?? current.confidentialIssuesEvents ?? false,
    mergeRequestsEvents: params.merge_requests_events ?? current.mergeRequestsEvents,
    tagPushEvents: params.tag_push_events ?? current.tagPushEvents,
    noteEvents: params.note_events ?? current.noteEvents,
    confidentialNoteEvents: params.confidential_note_events ?? current.confidentialNoteEvents ?? false,
    jobEvents: params.job_events ?? current.jobEvents,
    pipelineEvents: params.pipeline_events ?? current.pipelineEvents,
    wikiPageEvents: params.wiki_events ?? params.wiki_page_events ?? current.wikiPageEvents,
    deploymentEvents: params.deployment_events ?? current.deploymentEvents ?? false,
    enableSslVerification: params.enable_ssl_verification ?? current.enableSslVerification,
  };
}

/** GitLab's URL validator: parsable, http or https only; the error, or undefined when valid. */
export function validateUrl(url: string): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `is too long (maximum is ${MAX_URL_LENGTH} characters)`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'is blocked: Only allowed schemes are http, https';
  if (!parsed.hostname) return 'is invalid';
  return undefined;
}
