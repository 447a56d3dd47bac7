/**
 * `GET /projects/:id/languages` over HTTP: a repository pushed with the real git CLI, its files'
 * bytes by language in percent (rounded to two decimals, largest first), what does not count
 * (documentation, vendored code, data, prose, binary files), the answer following a new head, `{}`
 * for an empty repository, and who may read it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';

const languagesOf = (project: { id: number }, token?: string) => api(`/projects/${project.id}/languages`, { token });

describe('GET /projects/:id/languages', () => {
  let project: OwnedProject;
  let work: string;
  beforeAll(async () => {
    // Arrange: 600 bytes of Ruby, 300 of JavaScript, 100 of Go; the rest does not count.
    project = await ownedProject('private');
    work = await localRepository({
      'app/models/user.rb': 'r'.repeat(400),
      'lib/tasks/build.rake': 'r'.repeat(200),
      'web/app.js': 'j'.repeat(300),
      'cmd/main.go': 'g'.repeat(100),
      'README.md': 'm'.repeat(5000),
      'docs/guide.rb': 'd'.repeat(5000),
      'node_modules/left-pad/index.js': 'v'.repeat(5000),
      'vendor/lib.rb': 'v'.repeat(5000),
      'config/settings.json': '{"a": 1}'.repeat(500),
      'assets/logo.js': Buffer.concat([Buffer.from([0, 1, 2]), Buffer.alloc(5000, 7)]),
      'package-lock.json': '{}'.repeat(1000),
    });
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:refs/heads/main'], { cwd: work });
  });

  it('answers each counted language’s share of the bytes, largest first', async () => {
    // Act
    const response = await languagesOf(project, project.owner.token);
    // Assert
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Ruby: 60, JavaScript: 30, Go: 10 });
    expect(Object.keys(response.body)).toEqual(['Ruby', 'JavaScript', 'Go']);
  });

  it('follows the default branch’s new head, rounding to two decimals', async () => {
    // Arrange: 600 Ruby, 300 JavaScript, 100 Go, 200 TypeScript = 1200 bytes.
    await commitFiles(work, { 'web/view.ts': 't'.repeat(200) }, 'add typescript');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:refs/heads/main'], { cwd: work });
    // Act
    const response = await languagesOf(project, project.owner.token);
    // Assert
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Ruby: 50, JavaScript: 25, TypeScript: 16.67, Go: 8.33 });
  });

  it('answers {} for an empty repository', async () => {
    // Arrange
    const empty = await ownedProject('public');
    // Act
    const response = await languagesOf(empty);
    // Assert
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
  });

  it('hides a private project from strangers and anonymous callers (404), and lets a reporter read', async () => {
    // Arrange
    const reporter = await newMember(project, 20);
    const stranger = await newMember({ id: (await ownedProject()).id }, 30);
    // Act
    const asStranger = await languagesOf(project, stranger.token);
    const anonymous = await languagesOf(project);
    const asReporter = await languagesOf(project, reporter.token);
    // Assert
    expect(asStranger.status).toBe(404);
    expect(asStranger.body).toEqual({ message: '404 Project Not Found' });
    expect(anonymous.status).toBe(404);
    expect(asReporter.status).toBe(200);
    expect(Object.keys(asReporter.body)).toContain('Ruby');
  });

  it('answers 404 for a project that does not exist', async () => {
    const response = await languagesOf({ id: 999999999 }, project.owner.token);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});
