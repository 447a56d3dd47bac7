/**
 * The wikis feature's kind of webhook event, `wiki_page` (a page created, edited or deleted through
 * the Wikis API), declared to the hooks feature's outbox, and its `Wiki Page Hook` payload
 * (GitLab's `Gitlab::DataBuilder::WikiPage`, `Wiki#hook_attrs`, `WikiPage#hook_attrs`): the actor,
 * the project, the wiki (`web_url` its home page, its clone URLs, `path_with_namespace`
 * `<project>.wiki`, its branch) and `object_attributes`: the page's `title`, `content`, `format`,
 * the commit's `message`, `slug`, the page's `url`, `action` (`create`, `update`, `delete`),
 * `diff_url` and `version_id` (the commit the change made). A pure function of what the event stores
 * (the page as the write left it, taken in the write) and the delivery context: delivery reads no
 * repository.
 *
 * Importing this module registers how the events are stored (content cut to fit one item), so the
 * writes (`commands.ts`) and the delivery function (through `index.ts`) both load it.
 */
import {
  HOOK_EVENT_MAX_BYTES,
  projectHookAttrs,
  registerHookEventForms,
  userHookAttrs,
  type HookEvent,
  type HookEventForm,
  type HookEventOf,
  type HookPayloadBuilder,
} from '../hooks';
import { config } from '../platform/config';

/** GitLab's `object_attributes.action` of a Wiki Page Hook. */
export type WikiPageHookAction = 'create' | 'update' | 'delete';

/** GitLab's `Event#action_name` of the feed event of a page's change, by its hook action. */
export const WIKI_EVENT_ACTIONS = { create: 'created', update: 'updated', delete: 'destroyed' } as const satisfies Record<WikiPageHookAction, string>;

/** A page as its hook shows it: as the change left it (before it, for a deletion). */
export interface WikiHookPage {
  title: string;
  slug: string;
  format: string;
  content: string;
  /** The commit's message. */
  message: string;
}

declare module '../hooks' {
  interface HookEventKinds {
    /** `versionId` is the commit the change made; `branch` the wiki's. */
    wiki_page: { action: WikiPageHookAction; page: WikiHookPage; versionId: string; branch: string };
  }
}

type WikiPageHookEvent = HookEventOf<'wiki_page'>;

/**
 * Internal: the event as stored: as given, or, for a page too large for one item, its content cut
 * (at a character boundary) to what fits, rather than failing the user's write.
 */
function storedForm(event: WikiPageHookEvent): Record<string, unknown> {
  const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const size = jsonBytes(event);
  if (size <= HOOK_EVENT_MAX_BYTES) return { ...event };
  const budget = Math.max(0, HOOK_EVENT_MAX_BYTES - (size - jsonBytes(event.page.content)));
  let content = event.page.content;
  // Each pass keeps the share of the bytes that fits as JSON (escapes make JSON longer), until it
  // does; a character cut in two decodes as U+FFFD, dropped.
  for (let json = jsonBytes(content); json > budget; json = jsonBytes(content)) {
    const bytes = Buffer.from(content);
    content = bytes.subarray(0, Math.floor((bytes.length * budget) / json)).toString('utf8').replace(/\uFFFD$/, '');
  }
  return { ...event, page: { ...event.page, content } };
}

export const wikiPageHookEventForm = {
  toStored: storedForm,
  fromStored: (stored: HookEvent) => stored as unknown as WikiPageHookEvent,
} satisfies HookEventForm<WikiPageHookEvent>;

registerHookEventForms({ wiki_page: wikiPageHookEventForm });

/** The URL of a page of the wiki of the project at `webUrl` (GitLab's `project_wiki_url`). */
const pageUrl = (webUrl: string, slug: string) => `${webUrl}/-/wikis/${slug.split('/').map(encodeURIComponent).join('/')}`;

/** How a `wiki_page` event is delivered: to hooks with `wiki_page_events`, as `Wiki Page Hook`. */
export const wikiPageHookBuilder = {
  trigger: () => 'wikiPageEvents',
  eventName: () => 'Wiki Page Hook',
  build: (event, context) => {
    const project = projectHookAttrs(context.project, context.namespace);
    const wikiPath = `${project.path_with_namespace}.wiki`;
    const url = pageUrl(project.web_url, event.page.slug);
    return {
      object_kind: 'wiki_page',
      user: userHookAttrs(context.actor),
      project,
      wiki: {
        web_url: pageUrl(project.web_url, 'home'),
        git_ssh_url: `git@${config().sshHost}:${wikiPath}.git`,
        git_http_url: `${project.web_url}.wiki.git`,
        path_with_namespace: wikiPath,
        default_branch: event.branch,
      },
      object_attributes: {
        title: event.page.title,
        content: event.page.content,
        format: event.page.format,
        message: event.page.message,
        slug: event.page.slug,
        url,
        action: event.action,
        diff_url: `${url}/diff?version_id=${event.versionId}`,
        version_id: event.versionId,
      },
    };
  },
} satisfies HookPayloadBuilder<WikiPageHookEvent>;

/** The delivery entry's builder of this feature's events. */
export const wikiPageHookPayloads = { wiki_page: wikiPageHookBuilder };
