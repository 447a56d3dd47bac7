/**
 * Award names over HTTP: every name of GitLab's emoji set is accepted (not only the everyday
 * ones), an alias of 👍 is stored and counted as `thumbsup`, an unknown name is refused with
 * GitLab's answer and writes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { openIssue, ownedProject, type OwnedProject } from '../support/fixtures';

describe('award emoji names', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  const awardsUrl = (iid: number) => `/projects/${project.id}/issues/${iid}/award_emoji`;

  it('accepts the rarer names of the set (skin tones, flags, objects) as given', async () => {
    // Arrange
    const issue = await openIssue(project.id, project.owner.token);

    for (const name of ['basketball_player_tone1', 'flag_us', 'alembic', 'slight_smile']) {
      // Act
      const response = await api(awardsUrl(issue.iid), { token: project.owner.token, body: { name } });

      // Assert
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({ name, awardable_id: issue.id, awardable_type: 'Issue' });
    }
  });

  it("stores an alias of thumbsup as thumbsup and counts it as an upvote", async () => {
    // Arrange
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const response = await api(awardsUrl(issue.iid), { token: project.owner.token, body: { name: 'thumbup' } });

    // Assert
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('thumbsup');
    expect((await api(`/projects/${project.id}/issues/${issue.iid}`, { token: project.owner.token })).body.upvotes).toBe(1);
  });

  it('refuses a name outside the set, writing nothing', async () => {
    // Arrange
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const response = await api(awardsUrl(issue.iid), { token: project.owner.token, body: { name: 'thumbsup_tone9' } });

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Award Emoji Name is not a valid emoji name Not Found' });
    expect((await api(awardsUrl(issue.iid), { token: project.owner.token })).body).toEqual([]);
  });
});
