/**
 * What features beside groups remove when a group is deleted (CI removes the group's CI/CD
 * variables). They are declared as steps by the composition root (`functions/api.ts`), as the
 * projects feature's `removeWithProject` steps are, so this feature never imports them.
 */

/** What another feature removes of a group being deleted (marked `deleting`, before its own items go). */
export type GroupRemoval = (groupId: number) => Promise<unknown>;

const removals: GroupRemoval[] = [];

/** Declares what other features remove when a group is deleted, run in the order given. */
export function removeWithGroup(...steps: GroupRemoval[]): void {
  for (const step of steps) if (!removals.includes(step)) removals.push(step);
}

/** Runs every declared removal for one group of a tree being deleted. */
export async function runGroupRemovalSteps(groupId: number): Promise<void> {
  for (const remove of removals) await remove(groupId);
}
