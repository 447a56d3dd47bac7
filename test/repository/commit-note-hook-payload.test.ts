/**
 * The Note Hook payload of a comment on a commit (GitLab's `Gitlab::DataBuilder::Note` for a
 * commit): the note's attributes with `noteable_type: "Commit"`, its sha in `commit_id`, no
 * `noteable_id`, and the commit's `hook_attrs` as `commit`. Sent to hooks with `note_events`.
 */
import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../shared/namespaces/store/namespaces';
import type { Project } from '../../shared/projects/store/projects';
import type { CommitNote } from '../../shared/repository/store/commit-notes';
import type { User } from '../../shared/users/store/users';
import { commitNoteHookBuilder, commitNoteHookPayload } from '../../shared/repository/webhooks/commit-notes';
import { withEnvironment } from '../support/environment';

withEnvironment({ EXTERNAL_URL: 'https://git.example.com/', SSH_HOST: undefined });

const author = { id: 2, username: 'jdoe', name: 'Jane Doe', email: 'jdoe@example.com' } as unknown as User;
const ctx = {
  project: { id: 5, name: 'Diaspora', path: 'diaspora', description: 'A social network', defaultBranch: 'main', visibility: 'internal' } as Project,
  namespace: { id: 3, kind: 'group', name: 'Mike Group', path: 'mike', fullPath: 'mike' } as Namespace,
  actor: author,
};
const sha = 'cfe32cf61b73a0d5e9f13e774abde7ff789b1660';
const commit = {
  id: sha,
  message: 'Add submodule\n\nWith a body.',
  title: 'Add submodule',
  timestamp: '2014-02-27T10:06:20+02:00',
  author: { name: 'Dmitriy', email: 'dmitriy@example.com' },
};
const note: CommitNote = {
  id: 1243,
  projectId: 5,
  commitSha: sha,
  rootId: 1243,
  discussionId: 'a'.repeat(40),
  noteType: 'DiffNote',
  body: 'This is a commit comment. How does this work?',
  authorId: 2,
  createdAt: '2026-01-05T08:30:00.123Z',
  updatedAt: '2026-01-05T08:30:00.123Z',
  lineCode: 'f1_0_4',
  position: { base_sha: 'b'.repeat(40), start_sha: 'b'.repeat(40), head_sha: sha, old_path: 'a.rb', new_path: 'a.rb', position_type: 'text', old_line: null, new_line: 4, line_range: null },
};

describe('commitNoteHookPayload', () => {
  it('builds GitLab’s Note Hook of a commit comment: the note on the commit, and the commit', () => {
    // Act
    const payload = commitNoteHookPayload(ctx, { action: 'create', note, commit });

    // Assert
    const commitUrl = `https://git.example.com/mike/diaspora/-/commit/${sha}`;
    expect(payload).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { id: 2, username: 'jdoe', name: 'Jane Doe' },
      project_id: 5,
      project: { id: 5, path_with_namespace: 'mike/diaspora', web_url: 'https://git.example.com/mike/diaspora' },
      repository: { name: 'Diaspora', homepage: 'https://git.example.com/mike/diaspora' },
    });
    expect(payload.object_attributes).toEqual({
      id: 1243,
      note: 'This is a commit comment. How does this work?',
      noteable_type: 'Commit',
      author_id: 2,
      created_at: '2026-01-05 08:30:00 UTC',
      updated_at: '2026-01-05 08:30:00 UTC',
      project_id: 5,
      attachment: null,
      line_code: 'f1_0_4',
      commit_id: sha,
      noteable_id: null,
      system: false,
      st_diff: null,
      type: 'DiffNote',
      position: note.position,
      original_position: note.position,
      discussion_id: 'a'.repeat(40),
      action: 'create',
      url: `${commitUrl}#note_1243`,
    });
    expect(payload.commit).toEqual({ id: sha, message: commit.message, title: 'Add submodule', timestamp: commit.timestamp, url: commitUrl, author: commit.author });
  });

  it('a plain comment has no position and no line code', () => {
    // Act
    const payload = commitNoteHookPayload(ctx, { action: 'create', note: { ...note, noteType: null, lineCode: undefined, position: undefined }, commit });

    // Assert
    const attributes = payload.object_attributes as Record<string, unknown>;
    expect(attributes).toMatchObject({ type: null, line_code: null, noteable_type: 'Commit' });
    expect(attributes).not.toHaveProperty('position');
  });

  it('goes to hooks with note_events as a Note Hook', () => {
    // Assert
    expect(commitNoteHookBuilder.trigger()).toBe('noteEvents');
    expect(commitNoteHookBuilder.eventName()).toBe('Note Hook');
  });
});
