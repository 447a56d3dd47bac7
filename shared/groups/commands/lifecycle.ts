/**
 * What features beside groups remove when a group is deleted (CI removes the group's CI/CD
 * variables). They are declared as steps by the composition root (`functions/api.ts`), as the
 * projects feature's `removeWithProject` steps are, so this feature never imports them; and the
 * listeners of groups created and deleted (the hooks' `group_create` and `group_destroy` system events).
 */
import type { Namespace } from '../../namespaces';
import { listenersOf } from '../../platform/listeners';

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

const groupCreated = listenersOf<Namespace>('group created', (group) => ({ groupId: group.id }));
/** Registers what another feature does once a group (or subgroup) is created. */
export const onGroupCreated = groupCreated.on;
/** Tells the listeners a group was created; never throws. */
export const notifyGroupCreated = groupCreated.notify;

const groupDestroyed = listenersOf<Namespace>('group destroyed', (group) => ({ groupId: group.id }));
/** Registers what another feature does once a group of a deleted tree is gone. */
export const onGroupDestroyed = groupDestroyed.on;
/** Tells the listeners a group was deleted; never throws. */
export const notifyGroupDestroyed = groupDestroyed.notify;
