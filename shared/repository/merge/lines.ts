/**
 * A three-way merge of one file's content (diff3, as git's `xdl_merge` decides it): the changes
 * base→ours and base→theirs are lined up on the base's lines; changes of the two sides that
 * overlap or touch (no unchanged base line between them, as git's `xscr1->i1 + xscr1->chg1 <
 * xscr2->i1` test) form one region. A region changed by one side takes that side's lines; a region
 * changed by both merges only when both sides end up with the same lines there (identical changes;
 * git's `xdl_cleanup_merge` / `xdl_refine_conflicts` drop such "conflicts"), and is a conflict
 * otherwise. No conflict markers are written: a conflict makes the whole merge fail.
 *
 * Built on the line diff the repository already has (`queries/xdiff.ts`, git's xdiff) rather than
 * the `node-diff3` package: about sixty lines, no dependency, and the same line records and
 * pairing as git. One difference remains: git's merge (ort) diffs with the histogram algorithm,
 * this with git's Myers; they pair lines differently only for unusual inputs (many repeated lines),
 * where a region may then be found clean by one and conflicting by the other.
 */
import { xdiff, xdiffRecords, type Change } from '../queries/xdiff';

/** A file's records as git's xdiff reads them (bytes kept: read as latin1). */
const records = (content: Buffer): string[] => xdiffRecords(content.toString('latin1'));

interface Sided extends Change {
  side: 0 | 1;
}

/**
 * The merged content, or `undefined` when the two sides' changes conflict. Contents are bytes
 * (compared as latin1 readings, so any encoding survives).
 */
export function mergeLines(base: Buffer, ours: Buffer, theirs: Buffer): Buffer | undefined {
  if (ours.equals(theirs) || base.equals(theirs)) return ours;
  if (base.equals(ours)) return theirs;
  const [a, o, t] = [records(base), records(ours), records(theirs)];
  const sides = [o, t];
  const diffs = [xdiff(a, o), xdiff(a, t)];
  const all: Sided[] = [...diffs[0].map((c) => ({ ...c, side: 0 as const })), ...diffs[1].map((c) => ({ ...c, side: 1 as const }))];
  all.sort((x, y) => x.i1 - y.i1 || x.side - y.side);
  const out: string[] = [];
  /** Per side: lines added minus lines removed by its changes before the current region. */
  const offset = [0, 0];
  let copied = 0;
  for (let first = 0; first < all.length; ) {
    // One region: changes that overlap or touch, transitively.
    const start = all[first].i1;
    let end = start + all[first].chg1;
    let last = first;
    while (last + 1 < all.length && all[last + 1].i1 <= end) {
      last++;
      end = Math.max(end, all[last].i1 + all[last].chg1);
    }
    const inside = [0, 0];
    for (let i = first; i <= last; i++) inside[all[i].side] += all[i].chg2 - all[i].chg1;
    const touched = new Set(all.slice(first, last + 1).map((change) => change.side));
    // The region's lines on one side (a side that did not change it has the base's).
    const chunk = (side: 0 | 1) => sides[side].slice(start + offset[side], end + offset[side] + inside[side]);
    for (let line = copied; line < start; line++) out.push(a[line]);
    if (touched.size === 2) {
      const [mine, yours] = [chunk(0), chunk(1)];
      if (mine.length !== yours.length || mine.some((line, i) => line !== yours[i])) return undefined;
      out.push(...mine);
    } else {
      out.push(...chunk(touched.has(0) ? 0 : 1));
    }
    offset[0] += inside[0];
    offset[1] += inside[1];
    copied = end;
    first = last + 1;
  }
  for (let line = copied; line < a.length; line++) out.push(a[line]);
  return Buffer.from(out.join(''), 'latin1');
}
