/**
 * Answers for the id sequences' UpdateItem calls (`shared/platform/dynamo/counters.ts`) in unit
 * tests with a mocked table: global sequences are attributes of the shared counter item (one
 * `ADD` names several), per-parent ones (`issues#7`) their own item's `value`.
 */
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

/** The new totals an id `ADD` returns when each sequence it names ends at `last` (or `last(sequence, count)`). */
export function idTotals(input: UpdateCommandInput, last: number | ((sequence: string, count: number) => number)): Record<string, number> {
  const end = (sequence: string, count: number) => (typeof last === 'number' ? last : last(sequence, count));
  const pk = String(input.Key?.PK ?? '');
  if (!pk.startsWith('COUNTER#')) return {};
  if (pk !== 'COUNTER#ids') return { value: end(pk.slice('COUNTER#'.length), Number(input.ExpressionAttributeValues?.[':count'] ?? 1)) };
  const names = input.ExpressionAttributeNames ?? {};
  return Object.fromEntries(
    Object.entries(names).map(([alias, sequence]) => [sequence, end(sequence, Number(input.ExpressionAttributeValues?.[alias.replace('#s', ':c')] ?? 1))]),
  );
}

/** `callsFake` answer for UpdateCommand: counters end at `last`; any other update answers `{}`. */
export const idsEndAt =
  (last: number | ((sequence: string, count: number) => number)) =>
  (input: UpdateCommandInput): { Attributes?: Record<string, number> } => ({ Attributes: idTotals(input, last) });

/** The sequences (by name) that id `ADD`s drew from, in order. */
export const sequencesDrawn = (inputs: UpdateCommandInput[]): string[] =>
  inputs.flatMap((input) => {
    const pk = String(input.Key?.PK ?? '');
    if (pk === 'COUNTER#ids') return Object.values(input.ExpressionAttributeNames ?? {});
    return pk.startsWith('COUNTER#') ? [pk.slice('COUNTER#'.length)] : [];
  });
