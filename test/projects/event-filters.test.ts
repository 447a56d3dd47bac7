/**
 * The event feeds' filters over a paged feed: a date bound ends the feed where it passes it.
 */
import { describe, expect, it } from 'vitest';
import { mappedStream, paginate, type StreamSource } from '../../shared/platform/http/pagination';
import { filterEvents } from '../../shared/projects/queries/event-filters';
import type { ContributionEvent } from '../../shared/projects/store/events';

const BASE = 'http://localhost:3000/api/v4/events';

describe('paginate over an event feed that a date bound ends early', () => {
  it('counts the feed to where the bound ends it, though the feed it filters is longer than counting may read', async () => {
    // Prepare: 300 events, newest first, one a day (day 300 back to day 1), their visibility
    // checked a chunk at a time (a mapped stream); `after` day 250 ends the feed after 50 of them.
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
    const ids: StreamSource<number> = {
      async *read() {
        for (let n = 300; n >= 1; n--) yield { value: n, cursor: () => String(n) };
      },
    };
    const feed = mappedStream(ids, async (values: number[]) =>
      values.map((n) => ({ id: n, actionName: 'opened', targetType: 'Issue', createdAt: day(n) }) as unknown as ContributionEvent),
    );

    // Act
    const page = await paginate({ page: 1, per_page: 20 }, { url: BASE, query: {} }, filterEvents(feed, { after: day(250).slice(0, 10) }));

    // Assess
    expect(page.items.map((event) => event.id)).toEqual(Array.from({ length: 20 }, (_, i) => 300 - i));
    expect(page.headers['X-Total']).toBe('50');
  });
});
