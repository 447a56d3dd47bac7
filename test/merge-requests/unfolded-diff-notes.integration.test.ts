/**
 * Diff notes on unchanged lines outside the diff's hunks (a comment on expanded context, GitLab's
 * `Gitlab::Diff::LinesUnfolder`): a text position with both `old_line` and `new_line` is accepted
 * when `new_line` is where the hunks before it put that old line, with GitLab's line code
 * (`<sha1 of the path>_<old>_<new>`); a line beyond the old file's end, or a `new_line` that does
 * not match, is GitLab's 400 and writes nothing. Permissions and privacy are those of any diff
 * note (a stranger to the private project: 404; anonymous: 401).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, mrs, openMergeRequest, REPORTER } from './helpers';

const FILE = 'long.txt';
const LINE_CODE_ERROR = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line${i + 1}`);

let project: OwnedProject;
let reporter: TestUser;
let mr: { iid: number; diff_refs: { base_sha: string; start_sha: string; head_sha: string } };

const discussionsUrl = () => mrs(project.id, `/${mr.iid}/discussions`);
const at = (old_line: number, new_line: number) => ({ ...mr.diff_refs, position_type: 'text', old_path: FILE, new_path: FILE, old_line, new_line });
const count = async () => (await api(discussionsUrl(), { token: project.owner.token })).body.length as number;

beforeAll(async () => {
  project = await ownedProject('private');
  const base = lines(40);
  await commit(project.id, project.owner.token, 'main', { [FILE]: `${base.join('\n')}\n` });
  // Line 3 changed, a line inserted after line 30: two hunks, old lines 1–6 and 28–33.
  const changed = [...base.slice(0, 2), 'changed', ...base.slice(3, 30), 'inserted', ...base.slice(30)];
  await commit(project.id, project.owner.token, 'topic', { [FILE]: `${changed.join('\n')}\n` }, { start: 'main', update: true });
  reporter = await newMember(project, REPORTER);
  const opened = await openMergeRequest(project.id, project.owner.token, { source_branch: 'topic' });
  mr = (await api(mrs(project.id, `/${opened.iid}`), { token: project.owner.token })).body;
});

describe('diff notes outside the hunks', () => {
  it.each([
    [15, 15, 'between the hunks'],
    [36, 37, 'after the inserted line'],
    [40, 41, 'on the old file’s last line'],
  ])('accepts old %i / new %i (%s) with GitLab’s line code', async (oldLine, newLine) => {
    // Act
    const response = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Context', position: at(oldLine, newLine) } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.notes[0]).toMatchObject({ type: 'DiffNote', position: { old_line: oldLine, new_line: newLine, old_path: FILE, new_path: FILE } });
    const listed = (await api(discussionsUrl(), { token: reporter.token })).body.find((d: { id: string }) => d.id === response.body.id);
    expect(listed.notes[0].position).toMatchObject({ old_line: oldLine, new_line: newLine });
  });

  it.each([
    [41, 42, 'beyond the old file’s end'],
    [36, 36, 'a new line the hunks do not put there'],
    [15, 16, 'shifted where nothing moved'],
  ])('refuses old %i / new %i (%s) with GitLab’s 400, writing nothing', async (oldLine, newLine) => {
    // Arrange
    const before = await count();

    // Act
    const response = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Nowhere', position: at(oldLine, newLine) } });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: LINE_CODE_ERROR });
    expect(await count()).toBe(before);
  });

  it('is 404 to a stranger and 401 anonymously, writing nothing', async () => {
    // Arrange
    const stranger = await createUser();
    const before = await count();

    // Act
    const hidden = await api(discussionsUrl(), { token: stranger.token, body: { body: 'x', position: at(15, 15) } });
    const anonymous = await api(discussionsUrl(), { body: { body: 'x', position: at(15, 15) } });

    // Assert
    expect(hidden.status).toBe(404);
    expect(anonymous.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
