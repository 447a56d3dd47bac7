/**
 * Runners registered with `access_level: ref_protected` take only jobs of protected refs
 * (GitLab's `Ci::Runner#can_pick?`): a job on the protected default branch, never one on an
 * unprotected branch, which a `not_protected` runner takes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

describe('ref_protected runners', () => {
  let project: OwnedProject;
  let registrationToken: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    const work = await localRepository({ '.gitlab-ci.yml': 'build:\n  script: [echo build]\n' });
    const remote = cloneUrl(project.fullPath, project.owner.token);
    // The first push protects the default branch (GitLab's default branch protection); `feature` is not.
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['push', '-q', remote, 'main:feature'], { cwd: work });
    registrationToken = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
  });

  it('takes the job of protected main, not the one of an unprotected branch, which a normal runner takes', async () => {
    const branches = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token });
    expect(branches.body.map((branch: { name: string }) => branch.name)).toEqual(['main']);
    const protectedRunner = await TestRunner.register(registrationToken, { access_level: 'ref_protected' });
    const normalRunner = await TestRunner.register(registrationToken);

    const first = await protectedRunner.requestJob();
    expect(first.job?.git_info).toMatchObject({ ref: 'main', ref_type: 'branch' });
    const second = await protectedRunner.requestJob();
    expect(second.job).toBeUndefined();
    expect(second.lastUpdate).toEqual(expect.any(String));

    const taken = await normalRunner.requestJob();
    expect(taken.job?.git_info).toMatchObject({ ref: 'feature', ref_type: 'branch' });
  });
});
