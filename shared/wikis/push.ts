/**
 * The feed events of a push to the wiki's branch (GitLab's `Git::WikiPushService`): each page the
 * push created, changed or deleted (its files compared between the branch's tips before and after)
 * records `created`, `updated` or `destroyed` on `WikiPage::Meta`, at most 100 per push
 * (`MAX_CHANGES`). As on GitLab, a push sends no Wiki Page Hook. Loaded by the composition roots
 * on the first wiki push (`onWikiPushed`), so no function's cold start holds it.
 */
import { logger } from '../platform/logger';
import { recordEvent } from '../projects';
import type { WikiPushed } from '../repository';
import type { WikiPageFile } from './pages';
import { readWiki } from './queries';
import { WIKI_EVENT_ACTIONS, type WikiPageHookAction } from './webhooks';

/** GitLab's `Git::WikiPushService::MAX_CHANGES`: the most page events one push records. */
export const MAX_WIKI_PUSH_EVENTS = 100;

const ZERO_OID = '0'.repeat(40);

/** Internal: the wiki's pages at a commit, by path (none when the branch did not exist). */
async function pagesAt(project: WikiPushed['project'], oid: string): Promise<Map<string, WikiPageFile>> {
  if (oid === ZERO_OID) return new Map();
  const wiki = await readWiki(project, oid);
  return new Map((wiki?.pages ?? []).map((page) => [page.path, page]));
}

/**
 * The pages a push changed, in path order: created (a new page file), updated (its content changed)
 * or deleted.
 */
export function changedPages(before: Map<string, WikiPageFile>, after: Map<string, WikiPageFile>): Array<{ action: WikiPageHookAction; page: WikiPageFile }> {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths.flatMap((path): Array<{ action: WikiPageHookAction; page: WikiPageFile }> => {
    const [old, now] = [before.get(path), after.get(path)];
    if (!old) return [{ action: 'create', page: now! }];
    if (!now) return [{ action: 'delete', page: old }];
    return old.oid === now.oid ? [] : [{ action: 'update', page: now }];
  });
}

/** Records the events of a push to the wiki's branch; a failure is logged (the push stands). */
export async function recordWikiPush(push: WikiPushed): Promise<void> {
  const [before, after] = await Promise.all([pagesAt(push.project, push.before), pagesAt(push.project, push.after)]);
  for (const { action, page } of changedPages(before, after).slice(0, MAX_WIKI_PUSH_EVENTS)) {
    try {
      await recordEvent({
        projectId: push.project.id,
        authorId: push.user.id,
        actionName: WIKI_EVENT_ACTIONS[action],
        targetType: 'WikiPage::Meta',
        targetTitle: page.title,
        wikiPage: { format: page.format, slug: page.slug, title: page.title },
      });
    } catch (error) {
      logger.error('wiki push: could not record a page event', { projectId: push.project.id, path: page.path, error });
    }
  }
}
