/**
 * Global id sequences that more than one feature draws from (`counters.ts`, `nextId`): GitLab
 * keeps some kinds of records in one table, so their ids are one id space whoever writes them.
 * The name lives here, below every feature, so each writer imports it without importing another
 * feature. A shared sequence is declared here rather than in any feature's `keySpace` (which lists
 * only the sequences its feature alone draws from): {@link sharedSequenceSpace} is its key space.
 *
 * - `notes`: GitLab's `notes` table: notes on issues and merge requests (the issues feature) and
 *   on commits (the repository feature).
 */
import type { KeySpace } from './keys';

export const sharedSequences = {
  /** Ids of notes on any noteable: issues, merge requests, commits. */
  notes: 'notes',
} as const;

/** The shared sequences as a key space, for the check that no two owners claim one sequence. */
export const sharedSequenceSpace: KeySpace = {
  partitions: [],
  sortKeys: {},
  indexPartitions: {},
  sequences: Object.values(sharedSequences),
};
