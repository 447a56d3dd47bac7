/**
 * The parts every webhook payload shares, and the request headers, in GitLab's forms
 * (doc/user/project/integrations/webhook_events.md, webhooks.md "Delivery headers";
 * `User#hook_attrs`, `Project#hook_attrs`, `WebHookService#build_headers`). The features build
 * their payloads with these (the issues feature's are in `shared/issues/webhooks/`). Pure
 * functions of entities the caller loaded: no I/O here.
 *
 * Choices where GitLab's documentation is not one thing:
 * - Timestamps are `2013-12-03 17:15:43 UTC`, what GitLab actually delivers (its hook data goes
 *   through Sidekiq's JSON, which writes times that way; the docs' `"changes"` and comment examples
 *   show it), not the `2013-12-03T17:15:43Z` of some hand-written examples. Dates are `YYYY-MM-DD`.
 * - Users carry `email: "[REDACTED]"`: GitLab sends a user's *public* email or `[REDACTED]`
 *   (`User#webhook_email`), and users here have no public email, so everyone's is redacted, the
 *   actor's included. A user's `avatar_url` is its uploaded avatar's (absolute, as in API
 *   responses), `null` without one (GitLab would show a Gravatar; none is configured here).
 */
import { config } from '../../platform/config';
import { avatarUrl, type User } from '../../users';
import type { Namespace } from '../../namespaces';
import { type Project, projectAvatarUrl, projectFullPath, webUrlOf } from '../../projects';

/** GitLab's `visibility_level` numbers. */
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;

/**
 * A timestamp as GitLab's hook data shows it; `null` stays `null`.
 * @example hookTime('2013-12-03T17:15:43.120Z'); // '2013-12-03 17:15:43 UTC'
 */
export function hookTime(iso: string | null | undefined): string | null {
  if (iso === null || iso === undefined) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * `User#hook_attrs`: a payload's `user`, and the users of `assignees` and `changes` (see the
 * module comment for `email`).
 */
export const userHookAttrs = (user: User) => ({
  id: user.id,
  name: user.name,
  username: user.username,
  avatar_url: avatarUrl('user', user.id, user.avatar),
  email: '[REDACTED]',
});

/**
 * `Project#hook_attrs`, a payload's `project`, with the deprecated aliases GitLab still sends.
 * @example projectHookAttrs(project, namespace).path_with_namespace; // 'mike/diaspora'
 */
export function projectHookAttrs(project: Project, namespace: Namespace) {
  const path = projectFullPath(namespace, project);
  const webUrl = webUrlOf(path);
  const sshUrl = `git@${config().sshHost}:${path}.git`;
  const httpUrl = `${webUrl}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: webUrl,
    avatar_url: projectAvatarUrl(project),
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: namespace.name,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: path,
    default_branch: project.defaultBranch,
    ci_config_path: null,
    homepage: webUrl,
    url: sshUrl,
    ssh_url: sshUrl,
    http_url: httpUrl,
  };
}

/** The deprecated `repository` object of a payload: a slice of its `project` ({@link projectHookAttrs}). */
export function repositoryHookAttrs(project: ReturnType<typeof projectHookAttrs>) {
  return { name: project.name, url: project.url, description: project.description, homepage: project.homepage };
}

/** The `repository` object of push and job payloads: {@link repositoryHookAttrs} with its clone URLs and visibility. */
export function gitRepositoryHookAttrs(project: ReturnType<typeof projectHookAttrs>) {
  return { ...repositoryHookAttrs(project), git_http_url: project.git_http_url, git_ssh_url: project.git_ssh_url, visibility_level: project.visibility_level };
}

/** What every Note Hook payload says of its note (the shared part of GitLab's `Note#hook_attrs`). */
export interface HookNote {
  id: number;
  body: string;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  projectId: number;
}

/**
 * A Note Hook payload (GitLab's `Gitlab::DataBuilder::Note`): the actor, the project, the note's
 * `object_attributes` (its common ones, then what its noteable adds: `noteable_type`,
 * `noteable_id`, `line_code`, its thread, `action`, `url`),
 * the deprecated `repository`, and the noteable itself (`{ issue }`, `{ merge_request }`, `{ commit }`).
 *
 * @example
 * noteHookData(ctx, note, { attributes: { noteable_type: 'Commit', url: … }, noteable: { commit } });
 */
export function noteHookData(
  ctx: { project: Project; namespace: Namespace; actor: User },
  note: HookNote,
  options: { eventType?: 'note' | 'confidential_note'; attributes: Record<string, unknown>; noteable: Record<string, unknown> },
): Record<string, unknown> {
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  return {
    object_kind: 'note',
    event_type: options.eventType ?? 'note',
    user: userHookAttrs(ctx.actor),
    project_id: ctx.project.id,
    project,
    object_attributes: {
      id: note.id,
      note: note.body,
      author_id: note.authorId,
      created_at: hookTime(note.createdAt),
      updated_at: hookTime(note.updatedAt),
      project_id: note.projectId,
      attachment: null,
      st_diff: null,
      ...options.attributes,
    },
    repository: repositoryHookAttrs(project),
    ...options.noteable,
  };
}

export interface HookHeaderOptions {
  /** The hook's secret token, sent as `X-Gitlab-Token` (line breaks removed, as GitLab does). */
  token?: string;
  /** One id per event, shared by every hook it is sent to; also the `Idempotency-Key`. */
  eventUuid: string;
  /** `X-Gitlab-Webhook-UUID`, when the caller has one for the hook. */
  webhookUuid?: string;
}

/**
 * The request headers GitLab sends with a hook; `event` is the `X-Gitlab-Event` the event's kind
 * names (`Issue Hook`, `Confidential Note Hook`, ...).
 *
 * @example
 * hookHeaders('Note Hook', { token: 's3cret', eventUuid: randomUUID() })['X-Gitlab-Event']; // 'Note Hook'
 */
export function hookHeaders(event: string, options: HookHeaderOptions): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${config().version}`,
    'Idempotency-Key': options.eventUuid,
    'X-Gitlab-Event': event,
    'X-Gitlab-Event-UUID': options.eventUuid,
    ...(options.webhookUuid ? { 'X-Gitlab-Webhook-UUID': options.webhookUuid } : {}),
    'X-Gitlab-Instance': config().externalUrl,
    ...(options.token ? { 'X-Gitlab-Token': options.token.replace(/[\r\n]/g, '') } : {}),
  };
}
