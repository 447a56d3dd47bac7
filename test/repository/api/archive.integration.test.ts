/**
 * Repository archives over HTTP, unpacked with the system's `tar` and `unzip` and compared with
 * what the repository holds: the prefix directory GitLab names, the files and their modes, one
 * directory only with `path`, and GitLab's 404 for what names nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../../support/api';
import { ownedProject, type OwnedProject } from '../../support/fixtures';
import { scratch } from '../../support/git';
import { commit, repo } from './helpers';

async function download(project: OwnedProject, suffix: string, query = '') {
  const response = await fetch(`${baseUrl()}/api/v4${repo(project.id, `/archive${suffix}`)}${query}`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
  return { response, data: Buffer.from(await response.arrayBuffer()) };
}

describe('GET /projects/:id/repository/archive', () => {
  let project: OwnedProject;
  let head: { id: string };
  beforeAll(async () => {
    project = await ownedProject();
    head = await commit(project.id, project.owner.token, [
      { action: 'create', file_path: 'README.md', content: '# Archive\n' },
      { action: 'create', file_path: 'bin/run.sh', content: '#!/bin/sh\n', execute_filemode: true },
      { action: 'create', file_path: `docs/${'long-name-'.repeat(12)}.md`, content: 'long\n' },
      { action: 'create', file_path: 'data.bin', content: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' },
    ]);
  });

  it('sends a tar.gz of the default branch under GitLab’s prefix, by default', async () => {
    const { response, data } = await download(project, '');
    expect(response.status).toBe(200);
    const prefix = `${project.fullPath.split('/')[1]}-main-${head.id}`;
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.tar.gz"`);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const dir = scratch('archive-');
    writeFileSync(join(dir, 'a.tar.gz'), data);
    execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
    expect(readFileSync(join(dir, prefix, 'README.md'), 'utf8')).toBe('# Archive\n');
    expect(readFileSync(join(dir, prefix, 'data.bin'))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(readFileSync(join(dir, prefix, 'docs', `${'long-name-'.repeat(12)}.md`), 'utf8')).toBe('long\n');
    expect(statSync(join(dir, prefix, 'bin/run.sh')).mode & 0o111).not.toBe(0);
    const listing = execFileSync('tar', ['-tzf', 'a.tar.gz'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(listing[0]).toBe(`${prefix}/`);
  });

  it('sends a zip, a plain tar, and one directory with path', async () => {
    const zip = await download(project, '.zip', '?sha=main');
    const dir = scratch('archive-');
    writeFileSync(join(dir, 'a.zip'), zip.data);
    execFileSync('unzip', ['-q', 'a.zip'], { cwd: dir });
    const prefix = `${project.fullPath.split('/')[1]}-main-${head.id}`;
    expect(readFileSync(join(dir, prefix, 'bin/run.sh'), 'utf8')).toBe('#!/bin/sh\n');
    expect(zip.response.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.zip"`);

    const plain = await download(project, '.tar', `?sha=${head.id}&path=bin`);
    const only = join(dir, 'only');
    mkdirSync(only);
    writeFileSync(join(only, 'a.tar'), plain.data);
    const listing = execFileSync('tar', ['-tf', 'a.tar'], { cwd: only, encoding: 'utf8' }).trim().split('\n');
    const shaPrefix = `${project.fullPath.split('/')[1]}-${head.id}-${head.id}-bin`;
    expect(listing).toEqual([`${shaPrefix}/`, `${shaPrefix}/bin/`, `${shaPrefix}/bin/run.sh`]);
  });

  it('answers 404 File Not Found for an unknown ref or path, and for an empty repository', async () => {
    expect((await api(repo(project.id, '/archive'), { token: project.owner.token, query: { sha: 'nope' } })).body).toEqual({ message: '404 File Not Found' });
    expect((await api(repo(project.id, '/archive.zip'), { token: project.owner.token, query: { path: 'nope' } })).body).toEqual({ message: '404 File Not Found' });
    const empty = await ownedProject();
    expect((await api(repo(empty.id, '/archive'), { token: empty.owner.token })).status).toBe(404);
  });
});
