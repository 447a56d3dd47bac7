/**
 * git's line diff (libxdiff as git ships it, `xdiff/xprepare.c`, `xdiffi.c`, `xemit.c`), so that
 * diffs read exactly as `git diff` (and so GitLab, through Gitaly) prints them: the same lines
 * paired, the same hunks.
 *
 * 1. Records (lines with their line feed) are classified by content; the common head and tail are
 *    trimmed; lines with no match in the other file are changed outright, and lines with many
 *    matches inside runs of such lines too (`xdl_cleanup_records`).
 * 2. The rest goes through Myers' divide-and-conquer diff with git's heuristics for costly inputs
 *    (`xdl_recs_cmp`, `xdl_split`).
 * 3. Groups of changes are slid to their final places (`xdl_change_compact`): as far down as they
 *    go, back up to line up with a change of the other file, or else where the indent heuristic
 *    (git's default since 2.14) scores best.
 * 4. Hunks are cut with 3 lines of context, changes up to 6 lines apart sharing one
 *    (`xdl_build_script`, `xdl_get_hunk`, `xdl_emit_diff`).
 */

const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;
const LINE_MAX = Number.MAX_SAFE_INTEGER;

/** `xdl_bogosqrt`: a power of two near the square root. */
function bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i *= 2;
  return i;
}

/** One file: its records' classes, and which records changed (with a sentinel on each side). */
interface FileData {
  /** Class of each record (equal content, equal class). */
  classes: Int32Array;
  /** `rchg[i + 1]`: record i changed; `rchg[0]` and `rchg[n + 1]` stay 0. */
  rchg: Uint8Array;
  /** Records that go through the Myers diff: their indexes and classes. */
  rindex: Int32Array;
  ha: Int32Array;
  nreff: number;
  dstart: number;
  dend: number;
}

const changed = (file: FileData, i: number) => file.rchg[i + 1] === 1;
const mark = (file: FileData, i: number, value: 0 | 1) => {
  file.rchg[i + 1] = value;
};

/** `xdl_clean_mmatch`: whether a multi-match line sits inside a run of unmatched lines. */
function cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let r: number;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (r = 1; i - r >= s; r++) {
    if (!dis[i - r]) rdis0++;
    else if (dis[i - r] === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (r = 1; i + r <= e; r++) {
    if (!dis[i + r]) rdis1++;
    else if (dis[i + r] === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

/** `xdl_prepare_env` with `xdl_trim_ends` and `xdl_cleanup_records`. */
function prepare(a: string[], b: string[]): [FileData, FileData] {
  const ids = new Map<string, number>();
  const counts1: number[] = [];
  const counts2: number[] = [];
  const classify = (lines: string[], counts: number[], other: number[]) =>
    Int32Array.from(lines, (line) => {
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
        counts.push(0);
        other.push(0);
      }
      counts[id]++;
      return id;
    });
  const c1 = classify(a, counts1, counts2);
  const c2 = classify(b, counts2, counts1);
  const make = (classes: Int32Array): FileData => ({
    classes,
    rchg: new Uint8Array(classes.length + 2),
    rindex: new Int32Array(classes.length),
    ha: new Int32Array(classes.length),
    nreff: 0,
    dstart: 0,
    dend: classes.length - 1,
  });
  const [x, y] = [make(c1), make(c2)];
  // Trim the common head and tail.
  const lim = Math.min(c1.length, c2.length);
  let i = 0;
  while (i < lim && c1[i] === c2[i]) i++;
  x.dstart = y.dstart = i;
  let j = 0;
  while (j < lim - i && c1[c1.length - 1 - j] === c2[c2.length - 1 - j]) j++;
  x.dend = c1.length - j - 1;
  y.dend = c2.length - j - 1;
  // Records without a match in the other file are changed; many-match ones may be.
  const cleanup = (file: FileData, otherCounts: number[]) => {
    const n = file.classes.length;
    const dis = new Uint8Array(n + 1);
    const mlim = Math.min(bogosqrt(n), MAX_EQLIMIT);
    for (let k = file.dstart; k <= file.dend; k++) {
      const nm = otherCounts[file.classes[k]];
      dis[k] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
    }
    return dis;
  };
  const dis1 = cleanup(x, counts2);
  const dis2 = cleanup(y, counts1);
  const keep = (file: FileData, dis: Uint8Array) => {
    let nreff = 0;
    for (let k = file.dstart; k <= file.dend; k++) {
      if (dis[k] === 1 || (dis[k] === 2 && !cleanMmatch(dis, k, file.dstart, file.dend))) {
        file.rindex[nreff] = k;
        file.ha[nreff] = file.classes[k];
        nreff++;
      } else {
        mark(file, k, 1);
      }
    }
    file.nreff = nreff;
  };
  keep(x, dis1);
  keep(y, dis2);
  return [x, y];
}

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface Env {
  mxcost: number;
  kvdf: Float64Array;
  kvdb: Float64Array;
  /** Offset of diagonal 0 in the k vectors (diagonals go negative). */
  base: number;
}

/** `xdl_split`: the middle snake of the box, or a good-enough split for costly boxes. */
function split(ha1: Int32Array, off1: number, lim1: number, ha2: Int32Array, off2: number, lim2: number, needMin: boolean, env: Env): Split {
  const { kvdf, kvdb, base } = env;
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[base + fmid] = off1;
  kvdb[base + bmid] = lim1;
  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[base + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[base + ++fmax + 1] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kvdf[base + d - 1] >= kvdf[base + d + 1] ? kvdf[base + d - 1] + 1 : kvdf[base + d + 1];
      const prev1 = i1;
      let i2 = i1 - d;
      for (; i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]; i1++, i2++);
      if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
      kvdf[base + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[base + d] <= i1) return { i1, i2, minLo: true, minHi: true };
    }
    if (bmin > dmin) kvdb[base + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[base + ++bmax + 1] = LINE_MAX;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kvdb[base + d - 1] < kvdb[base + d + 1] ? kvdb[base + d - 1] : kvdb[base + d + 1] - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      for (; i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]; i1--, i2--);
      if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
      kvdb[base + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[base + d]) return { i1, i2, minLo: true, minHi: true };
    }
    if (needMin) continue;
    if (gotSnake && ec > HEUR_MIN_COST) {
      let best = 0;
      let found: Split | undefined;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kvdf[base + d];
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
          for (let k = 1; ha1[i1 - k] === ha2[i2 - k]; k++) {
            if (k === SNAKE_CNT) {
              best = v;
              found = { i1, i2, minLo: true, minHi: false };
              break;
            }
          }
        }
      }
      if (best > 0) return found!;
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kvdb[base + d];
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
          for (let k = 0; ha1[i1 + k] === ha2[i2 + k]; k++) {
            if (k === SNAKE_CNT - 1) {
              best = v;
              found = { i1, i2, minLo: false, minHi: true };
              break;
            }
          }
        }
      }
      if (best > 0) return found!;
    }
    if (ec >= env.mxcost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kvdf[base + d], lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kvdb[base + d]);
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
      return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
    }
  }
}

/** `xdl_recs_cmp`: marks the changed records of a box (iteratively, so deep inputs cannot overflow the stack). */
function compare(x: FileData, y: FileData, env: Env): void {
  const boxes: Array<[number, number, number, number, boolean]> = [[0, x.nreff, 0, y.nreff, false]];
  while (boxes.length > 0) {
    const box = boxes.pop()!;
    let [off1, lim1, off2, lim2] = box;
    const needMin = box[4];
    for (; off1 < lim1 && off2 < lim2 && x.ha[off1] === y.ha[off2]; off1++, off2++);
    for (; off1 < lim1 && off2 < lim2 && x.ha[lim1 - 1] === y.ha[lim2 - 1]; lim1--, lim2--);
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) mark(y, y.rindex[off2], 1);
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) mark(x, x.rindex[off1], 1);
    } else {
      const spl = split(x.ha, off1, lim1, y.ha, off2, lim2, needMin, env);
      // The low box first, as the recursion does (it changes no result, only the order).
      boxes.push([spl.i1, lim1, spl.i2, lim2, spl.minHi]);
      boxes.push([off1, spl.i1, off2, spl.i2, spl.minLo]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Compaction (xdl_change_compact) and the indent heuristic
// ---------------------------------------------------------------------------------------------

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** `get_indent`: columns of leading white space (tabs to multiples of 8), -1 for a blank line. */
function indentOf(line: string): number {
  let ret = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d) return ret;
    if (c === 0x20) ret += 1;
    else if (c === 0x09) ret += 8 - (ret % 8);
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Score {
  effectiveIndent: number;
  penalty: number;
}

/** `measure_split` then `score_add_split`. */
function scoreSplit(lines: string[], indents: Array<number | undefined>, splitAt: number, score: Score): void {
  const indent = (i: number) => (indents[i] ??= indentOf(lines[i]));
  const n = lines.length;
  const endOfFile = splitAt >= n;
  const lineIndent = endOfFile ? -1 : indent(splitAt);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = splitAt - 1; i >= 0; i--) {
    preIndent = indent(i);
    if (preIndent !== -1) break;
    preBlank += 1;
    if (preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlank = 0;
  let postIndent = -1;
  for (let i = splitAt + 1; i < n; i++) {
    postIndent = indent(i);
    if (postIndent !== -1) break;
    postBlank += 1;
    if (postBlank === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }
  if (preIndent === -1 && preBlank === 0) score.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) score.penalty += END_OF_FILE_PENALTY;
  const blankAfter = lineIndent === -1 ? 1 + postBlank : 0;
  const totalBlank = preBlank + blankAfter;
  score.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  score.penalty += POST_BLANK_WEIGHT * blankAfter;
  const effective = lineIndent !== -1 ? lineIndent : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.effectiveIndent += effective;
  if (effective === -1 || preIndent === -1) return;
  if (effective > preIndent) score.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  else if (effective === preIndent) return;
  else if (postIndent !== -1 && postIndent > effective) score.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  else score.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
}

const scoreCompare = (a: Score, b: Score) => INDENT_WEIGHT * (Number(a.effectiveIndent > b.effectiveIndent) - Number(a.effectiveIndent < b.effectiveIndent)) + (a.penalty - b.penalty);

/** A group of changed records `[start, end)` of one file. */
class Group {
  start = 0;
  end = 0;

  constructor(
    private readonly file: FileData,
    private readonly lines: string[],
  ) {
    while (changed(file, this.end)) this.end++;
  }

  private get n() {
    return this.file.classes.length;
  }

  next(): boolean {
    if (this.end === this.n) return false;
    this.start = this.end + 1;
    for (this.end = this.start; changed(this.file, this.end); this.end++);
    return true;
  }

  previous(): boolean {
    if (this.start === 0) return false;
    this.end = this.start - 1;
    for (this.start = this.end; changed(this.file, this.start - 1); this.start--);
    return true;
  }

  slideDown(): boolean {
    if (this.end < this.n && this.file.classes[this.start] === this.file.classes[this.end]) {
      mark(this.file, this.start++, 0);
      mark(this.file, this.end++, 1);
      while (changed(this.file, this.end)) this.end++;
      return true;
    }
    return false;
  }

  slideUp(): boolean {
    if (this.start > 0 && this.file.classes[this.start - 1] === this.file.classes[this.end - 1]) {
      mark(this.file, --this.start, 1);
      mark(this.file, --this.end, 0);
      while (changed(this.file, this.start - 1)) this.start--;
      return true;
    }
    return false;
  }

  get lineTexts(): string[] {
    return this.lines;
  }
}

/** `xdl_change_compact` of one file against the other, with the indent heuristic. */
function compact(file: FileData, lines: string[], other: FileData, otherLines: string[]): void {
  const g = new Group(file, lines);
  const go = new Group(other, otherLines);
  const indents: Array<number | undefined> = [];
  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (g.slideUp()) go.previous();
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (g.slideDown()) {
          go.next();
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);
      if (g.end === earliestEnd) {
        // No shifting was possible.
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          g.slideUp();
          go.previous();
        }
      } else {
        let shift = earliestEnd;
        if (g.end - groupSize - 1 > shift) shift = g.end - groupSize - 1;
        if (g.end - INDENT_HEURISTIC_MAX_SLIDING > shift) shift = g.end - INDENT_HEURISTIC_MAX_SLIDING;
        let bestShift = -1;
        let best: Score = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: Score = { effectiveIndent: 0, penalty: 0 };
          scoreSplit(lines, indents, shift, score);
          scoreSplit(lines, indents, shift - groupSize, score);
          if (bestShift === -1 || scoreCompare(score, best) <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          g.slideUp();
          go.previous();
        }
      }
    }
    if (!g.next()) break;
    go.next();
  }
}

/** Lines with their line feeds (the last one may have none): the records git's xdiff compares. */
export function xdiffRecords(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop()!;
  const records = lines.map((line) => `${line}\n`);
  if (last !== '') records.push(last);
  return records;
}

/** One change: `chg1` records of the old file at `i1` replaced by `chg2` of the new one at `i2`. */
export interface Change {
  i1: number;
  i2: number;
  chg1: number;
  chg2: number;
}

/**
 * git's diff of two files given as records (lines with their line feeds): the changes in order,
 * each pairing old records with new ones as `git diff` pairs them.
 */
export function xdiff(a: string[], b: string[]): Change[] {
  const [x, y] = prepare(a, b);
  const ndiags = x.nreff + y.nreff + 3;
  const env: Env = {
    mxcost: Math.max(bogosqrt(ndiags), MAX_COST_MIN),
    kvdf: new Float64Array(2 * ndiags + 2),
    kvdb: new Float64Array(2 * ndiags + 2),
    base: y.nreff + 1,
  };
  compare(x, y, env);
  compact(x, a, y, b);
  compact(y, b, x, a);
  // xdl_build_script: from the end, each run of changes on either side is one change.
  const changes: Change[] = [];
  for (let i1 = a.length, i2 = b.length; i1 >= 0 || i2 >= 0; i1--, i2--) {
    if (changed(x, i1 - 1) || changed(y, i2 - 1)) {
      const l1 = i1;
      const l2 = i2;
      while (changed(x, i1 - 1)) i1--;
      while (changed(y, i2 - 1)) i2--;
      changes.push({ i1, i2, chg1: l1 - i1, chg2: l2 - i2 });
    }
  }
  return changes.reverse();
}
