/**
 * Listeners of label deletions, registered by the composition root: a feature above the issues
 * (the boards, whose label lists GitLab destroys with their label) cannot be imported by them.
 * Called once the label is gone, for a project's own label or a group's (not a project's alias of
 * a group label: nothing refers to an alias by its id but its issues).
 */
import { listenersOf } from '../platform/listeners';
import type { LabelOwner } from './store/keys';

export interface DeletedLabel {
  owner: LabelOwner;
  labelId: number;
}

const labelDeleted = listenersOf<DeletedLabel>('label deleted', (event) => ({ labelId: event.labelId, owner: `${event.owner.kind}#${event.owner.id}` }));

/** Registers a listener of label deletions (by a composition root). */
export const onLabelDeleted = labelDeleted.on;
/** Tells the listeners a label was deleted; never throws. */
export const notifyLabelDeleted = labelDeleted.notify;
