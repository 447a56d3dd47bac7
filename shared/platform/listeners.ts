/**
 * Listeners of one kind of event, registered by the composition roots (a feature above the one
 * that raises the event cannot be imported by it): each is called in turn, and one's failure is
 * logged with the event's fields, never failing the change that raised the event.
 *
 * @example
 * const pipelineFinished = listenersOf<Pipeline>('pipeline finished', (pipeline) => ({ pipelineId: pipeline.id }));
 * export const onPipelineFinished = pipelineFinished.on;
 */
import { logger } from './logger';

export type Listener<E> = (event: E) => unknown;

export interface Listeners<E> {
  /** Registers a listener (at module load, by a composition root); answers a function that removes it. */
  on(listener: Listener<E>): () => void;
  /** Calls every listener in turn; never throws. */
  notify(event: E): Promise<void>;
}

export function listenersOf<E>(name: string, fieldsOf: (event: E) => Record<string, unknown>): Listeners<E> {
  const registered: Array<Listener<E>> = [];
  return {
    on(listener) {
      registered.push(listener);
      return () => {
        const index = registered.indexOf(listener);
        if (index >= 0) registered.splice(index, 1);
      };
    },
    async notify(event) {
      for (const listener of [...registered]) {
        try {
          await listener(event);
        } catch (error) {
          logger.error(`${name}: a listener failed`, { ...fieldsOf(event), error });
        }
      }
    },
  };
}
