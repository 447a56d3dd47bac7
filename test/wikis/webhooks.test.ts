/** How a `wiki_page` webhook event is stored in the outbox: as given, or with a huge page's content cut to fit one item. */
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_MAX_BYTES } from '../../shared/hooks';
import { wikiPageHookEventForm } from '../../shared/wikis/webhooks';

const event = (content: string) => ({
  id: 1,
  projectId: 2,
  actorId: 3,
  kind: 'wiki_page' as const,
  action: 'create' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  page: { title: 'Big', slug: 'Big', format: 'markdown', content, message: 'root created page: Big' },
  versionId: 'a'.repeat(40),
  branch: 'main',
});

describe('wiki page hook events as stored', () => {
  it('keeps a page as given, and cuts a page too large for one item to what fits, at a character boundary', () => {
    const small = event('Hello');
    expect(wikiPageHookEventForm.toStored(small)).toEqual(small);

    const stored = wikiPageHookEventForm.toStored(event('é"\n'.repeat(200_000))) as ReturnType<typeof event>;
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(HOOK_EVENT_MAX_BYTES);
    expect(stored.page.content.length).toBeGreaterThan(1000);
    expect('é"\n'.repeat(200_000).startsWith(stored.page.content)).toBe(true);
    expect(stored.page.message).toBe('root created page: Big');
  });
});
