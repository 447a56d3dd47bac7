/**
 * Whether a namespace is still in a live tree. Deleting a group marks the group `deleting` at
 * once (`DELETE /groups/:id` answers 202) and a background job then walks its subgroups and
 * projects, marking each as it reaches it. GitLab hides the whole tree at once, so a namespace
 * counts as gone as soon as any of its ancestors is marked (or missing): reads answer 404 and
 * lists leave it out, as if it were deleted already, and writes into it are refused.
 *
 * Cost: nothing for a namespace without ancestors (a user namespace, a top-level group); for a
 * subgroup its ancestors, read with one BatchGetItem per 100 and only those not already in hand
 * (a list shares one read per chunk: ancestors repeat across a page; the caller's access
 * resolution often read them already).
 */
import { getMany } from '../../platform/dynamo/batch';
import { entityFields } from '../../platform/dynamo/items';
import type { Item } from '../../platform/dynamo/query';
import { namespaceKeys } from './keys';
import type { Namespace } from './namespaces';

/** What the check needs of a namespace. */
type Placed = Pick<Namespace, 'id' | 'ancestorIds'> & { deleting?: boolean };

/** Namespaces read so far by id, deleting ones included: what an ancestor check has in hand. */
export type KnownNamespaces = Map<number, Placed>;

/**
 * Whether every ancestor of `namespace` is in `known` and not being deleted (a missing one
 * counts as gone: a group item goes only after everything beneath it). The namespace's own
 * `deleting` is the caller's to check. Pure.
 */
export function ancestorsLive(namespace: Pick<Namespace, 'ancestorIds'>, known: ReadonlyMap<number, Placed>): boolean {
  return (namespace.ancestorIds ?? []).every((id) => {
    const ancestor = known.get(id);
    return ancestor !== undefined && !ancestor.deleting;
  });
}

/** The ancestor ids of `namespaces` not in `known`. Pure. */
export function missingAncestors(namespaces: Iterable<Pick<Namespace, 'ancestorIds'>>, known: ReadonlyMap<number, unknown>): number[] {
  const missing = new Set<number>();
  for (const namespace of namespaces) for (const id of namespace.ancestorIds ?? []) if (!known.has(id)) missing.add(id);
  return [...missing];
}

/**
 * Reads the ancestors of `namespaces` that `known` lacks (one BatchGetItem per 100, consistent;
 * none when all are known) into `known`. An ancestor not found is left out of `known`, so
 * {@link ancestorsLive} counts it as gone.
 */
export async function loadAncestors(namespaces: Iterable<Pick<Namespace, 'ancestorIds'>>, known: KnownNamespaces): Promise<void> {
  const missing = missingAncestors(namespaces, known);
  if (missing.length === 0) return;
  for (const item of await getMany(missing.map((id) => namespaceKeys.namespace(id)))) {
    const namespace = entityFields(item) as Namespace;
    known.set(namespace.id, namespace);
  }
}

/**
 * The namespaces of `namespaces` whose ancestors are all live (their own `deleting` is not
 * looked at), reading the ancestors `known` lacks. Order is kept.
 */
export async function inLiveTrees<T extends Pick<Namespace, 'ancestorIds'>>(namespaces: T[], known: KnownNamespaces = new Map()): Promise<T[]> {
  await loadAncestors(namespaces, known);
  return namespaces.filter((namespace) => ancestorsLive(namespace, known));
}

/** The namespace items of a batch read as known namespaces, by id (deleting ones included). Internal helper for callers holding raw items. */
export function knownFromItems(items: Iterable<Item>): KnownNamespaces {
  const known: KnownNamespaces = new Map();
  for (const item of items) {
    const key = namespaceKeys.namespace(Number(item.id));
    if (item.PK !== key.PK || item.SK !== key.SK) continue;
    const namespace = entityFields(item) as Namespace;
    known.set(namespace.id, namespace);
  }
  return known;
}
