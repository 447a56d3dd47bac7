/** Listeners of an event (`shared/platform/listeners.ts`): called in turn, a failure logged and never thrown, removable. */
import { describe, expect, it } from 'vitest';
import { listenersOf } from '../../shared/platform/listeners';

describe('listenersOf', () => {
  it('calls every listener in the order registered, past one that fails, and no more once removed', async () => {
    // Prepare
    const heard: string[] = [];
    const events = listenersOf<{ id: number }>('test event', (event) => ({ id: event.id }));
    events.on((event) => heard.push(`first ${event.id}`));
    const off = events.on(() => {
      throw new Error('boom');
    });
    events.on(async (event) => heard.push(`last ${event.id}`));

    // Act
    await events.notify({ id: 1 });
    off();
    await events.notify({ id: 2 });

    // Assess
    expect(heard).toEqual(['first 1', 'last 1', 'first 2', 'last 2']);
  });
});
