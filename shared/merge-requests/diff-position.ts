/**
 * Diff note positions on merge requests (GitLab's `Gitlab::Diff::Position` and the validations of
 * `DiffNote`): `POST .../discussions` with `position` starts a discussion on a line (`text`), an
 * image (`image`) or a whole file (`file`) of one of the merge request's diff versions.
 *
 * GitLab resolves a text position in the diff its shas name (`base_sha`, `start_sha`, `head_sha`)
 * and gives the note the line code of the line found there
 * (`<sha1 of the file path>_<old line>_<new line>`); a line that is not in that diff leaves the
 * note without one, refused as `400 Bad request - Note {:line_code=>["can't be blank", "must be a
 * valid line code"]}`. Here the shas must be those of one of the merge request's versions
 * (`GET .../versions`: the current `diff_refs` or an older push's), whose stored diffs are read;
 * other shas find no diff, so a text position there is refused the same way.
 *
 * A position on an unchanged line outside the diff's hunks (both `old_line` and `new_line`: a
 * comment on expanded context) is found as GitLab's `Gitlab::Diff::LinesUnfolder` finds it: the
 * old file is unfolded around that line, whose new number is the old one shifted by the hunks
 * before it, so `new_line` must be that number; an old line beyond the old file's end, or one in
 * a new or deleted file, unfolds nothing and is refused like any line not in the diff.
 *
 * The position is kept as GitLab shows it (`Position#to_h`), snake case. Parsing the parameter,
 * a diff's lines and line codes are the repository feature's (`shared/repository/diff-position.ts`,
 * shared with commit diff notes); checking against the versions is this feature's.
 */
import { getProject } from '../projects';
import {
  fileLineCount,
  isCompletePosition,
  lineCodeIn,
  openRepository,
  positionNoteErrors,
  shownPosition,
  unfoldedLineCode,
  unfoldedNewLine,
  type CheckedPosition,
  type PositionInput,
} from '../repository';
import type { MergeRequest } from './store/merge-requests';
import { listVersions, versionContent } from './store/versions';

// What is not particular to merge requests (parsing `position`, diff lines, line codes) is the
// repository feature's (`shared/repository/diff-position.ts`), re-exported for this feature's callers.
export { diffLines, lineCodeIn, positionFrom, unfoldedLineCode, unfoldedNewLine, type CheckedPosition, type PositionInput } from '../repository';

/**
 * Checks a position against the merge request's diff versions as `DiffNote`'s validations do:
 * a text position must name a line of the diff of the version its shas name (`line_code`); a
 * position must be complete (a path; a text one a line, an image one its size and point); the
 * merge request must have diff refs (`noteable`).
 * @throws BadRequestError `400 Bad request - Note {…}` with GitLab's errors.
 * @example
 * const { position, lineCode } = await checkPosition(mr, input);
 */
export async function checkPosition(mr: MergeRequest, input: PositionInput): Promise<CheckedPosition> {
  const errors: Record<string, string[]> = {};
  let lineCode: string | undefined;
  if (input.position_type === 'text') {
    lineCode = await findLineCode(mr, input);
    if (!lineCode) errors.line_code = ["can't be blank", 'must be a valid line code'];
  }
  if (!isCompletePosition(input)) errors.position = ['is incomplete'];
  if (!mr.baseSha || !mr.sha || !mr.targetSha) errors.noteable = ["doesn't support new-style diff notes"];
  if (Object.keys(errors).length > 0) throw positionNoteErrors(errors);
  return { position: shownPosition(input), ...(lineCode ? { lineCode } : {}) };
}

/**
 * Internal: the line code of a text position in the version its shas name, if any. The versions
 * of one merge request are few (one per push); only the matching one's diffs are read.
 */
async function findLineCode(mr: MergeRequest, input: PositionInput): Promise<string | undefined> {
  const versions = await listVersions(mr.projectId, mr.iid);
  const version = versions.find(
    (v) => v.baseCommitSha === input.base_sha && v.startCommitSha === input.start_sha && v.headCommitSha === input.head_sha,
  );
  if (!version) return undefined;
  const { diffs } = await versionContent(version);
  // GitLab's `comparison.diffs(paths: [old_path, new_path].compact)`: the first file either names.
  const paths = [input.old_path, input.new_path].filter((path): path is string => !!path);
  const file = diffs.find((diff) => paths.includes(diff.old_path) || paths.includes(diff.new_path));
  if (!file) return undefined;
  const inDiff = lineCodeIn(file, input.old_line, input.new_line);
  if (inDiff || input.old_line === undefined || input.new_line === undefined || unfoldedNewLine(file.diff, input.old_line) !== input.new_line) return inDiff;
  // An unchanged line outside the hunks: unfolded from the old file, up to its last line.
  const project = await getProject(mr.projectId);
  const oldLineCount = project && (await fileLineCount(await openRepository(project), version.baseCommitSha, file.old_path));
  return unfoldedLineCode(file, input.old_line, input.new_line, oldLineCount);
}
