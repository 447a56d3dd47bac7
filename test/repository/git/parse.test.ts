import { writeFileSync, symlinkSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  commitParents,
  formatTimezone,
  MalformedObjectError,
  parseCommit,
  parseCommitLinks,
  parseTag,
  parseTree,
  serializeCommit,
  serializeTag,
  serializeTree,
} from '../../../shared/repository/git/objects/parse';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import { commit, git, gitText, initRepo, readAllObjects } from './git-fixtures';

const LATIN1_NAME = Buffer.from('caf\xe9.txt', 'latin1');

const SIGNATURE = [
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'iQEzBAABCAAdFiEEexampleexampleexampleexampleexampleFAmVoZXJlAAoJEGV4YW1w',
  'bGVzaWcAAA==',
  '=abcd',
  '-----END PGP SIGNATURE-----',
].join('\n');

interface Fixture {
  repo: string;
  objects: Map<string, GitObject>;
  merge: string;
  signed: string;
  eastern: string;
  nestedTag: string;
  lightTree: string;
}

/** A repository with every kind of object and oddity the parsers must keep byte for byte. */
function buildFixture(): Fixture {
  const repo = initRepo();
  commit(repo, 'first\n\nwith a body\n', { 'README.md': 'hello\n', 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n', 'src.txt': 'x' }, 1700000000);
  writeFileSync(Buffer.concat([Buffer.from(`${repo}/`), LATIN1_NAME]), 'non-UTF-8 name\n');
  writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\n');
  chmodSync(join(repo, 'run.sh'), 0o755);
  symlinkSync('README.md', join(repo, 'link'));
  const base = commit(repo, 'odd names', { 'ünïcödé/😀.txt': 'emoji\n' }, 1700000100);
  git(repo, ['update-index', '--add', '--cacheinfo', `160000,${base},vendor/module`]);
  git(repo, ['commit', '-q', '-m', 'gitlink'], { env: { GIT_COMMITTER_DATE: '1700000200 +0200' } });
  git(repo, ['checkout', '-q', '-b', 'side', base]);
  commit(repo, 'side work', { 'side.txt': 'side\n' }, 1700000300);
  git(repo, ['checkout', '-q', 'main']);
  git(repo, ['merge', '-q', '--no-ff', '-m', 'Merge branch side', 'side'], { env: { GIT_COMMITTER_DATE: '1700000400 +0200' } });
  const merge = gitText(repo, ['rev-parse', 'HEAD']);
  git(repo, ['-c', 'i18n.commitEncoding=ISO-8859-1', 'commit', '-q', '--allow-empty', '-m', 'encoded'], {
    env: { GIT_COMMITTER_DATE: '1700000500 -0530', GIT_AUTHOR_DATE: '1700000500 -0530' },
  });
  const eastern = gitText(repo, ['rev-parse', 'HEAD']);
  const signedBody = [
    `tree ${gitText(repo, ['rev-parse', 'HEAD^{tree}'])}`,
    `parent ${eastern}`,
    'author A U Thor <author@example.com> 1700000600 +0000',
    'committer C O Mitter <committer@example.com> 1700000600 +0000',
    `gpgsig ${SIGNATURE.split('\n').join('\n ')}`,
    '',
    'signed-looking commit',
    '',
  ].join('\n');
  const signed = gitText(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: signedBody });
  git(repo, ['update-ref', 'refs/heads/main', signed]);
  git(repo, ['tag', '-a', 'v1', '-m', 'release v1\n\nnotes']);
  git(repo, ['tag', '-a', 'v1-nested', '-m', 'tag of a tag', 'v1']);
  git(repo, ['tag', '-a', 'tree-tag', '-m', 'a tree', 'HEAD^{tree}']);
  git(repo, ['tag', '-a', 'blob-tag', '-m', `signed tag\n${SIGNATURE}`, 'HEAD:README.md']);
  const nestedTag = gitText(repo, ['rev-parse', 'v1-nested']);
  const lightTree = gitText(repo, ['rev-parse', 'HEAD^{tree}']);
  return { repo, objects: readAllObjects(repo), merge, signed, eastern, nestedTag, lightTree };
}

describe('git object parsing', () => {
  let fixture: Fixture;
  beforeAll(() => {
    fixture = buildFixture();
  });

  const body = (oid: string) => fixture.objects.get(oid)!.body;

  it('serializes every commit, tree and tag of a real repository back byte for byte', () => {
    const counts = { commit: 0, tree: 0, tag: 0, blob: 0 };
    for (const [oid, object] of fixture.objects) {
      counts[object.type]++;
      const again =
        object.type === 'commit' ? serializeCommit(parseCommit(object.body))
        : object.type === 'tree' ? serializeTree(parseTree(object.body))
        : object.type === 'tag' ? serializeTag(parseTag(object.body))
        : object.body;
      expect(again.equals(object.body), `${object.type} ${oid}`).toBe(true);
      expect(hashObject(object.type, again)).toBe(oid);
    }
    expect(counts).toMatchObject({ commit: 7, tag: 4 });
    expect(counts.tree).toBeGreaterThan(8);
  });

  it('parses a merge commit and its signatures', () => {
    const merge = parseCommit(body(fixture.merge));
    expect(merge.parents).toHaveLength(2);
    expect(merge.message).toBe('Merge branch side\n');
    expect(merge.author).toEqual({ name: 'A U Thor', email: 'author@example.com', timestamp: 1700000000, timezone: '+0200', timezoneOffset: 120 });
    expect(merge.committer).toMatchObject({ name: 'C O Mitter', timestamp: 1700000400, timezoneOffset: 120 });
    expect(merge.gpgsig).toBeUndefined();
  });

  it('keeps negative zones and extra headers such as encoding', () => {
    const eastern = parseCommit(body(fixture.eastern));
    expect(eastern.committer).toMatchObject({ timezone: '-0530', timezoneOffset: -330 });
    expect(eastern.extraHeaders).toEqual([{ name: 'encoding', value: 'ISO-8859-1' }]);
  });

  it('reads the gpgsig header, blank signature lines included, and writes it last', () => {
    const signed = parseCommit(body(fixture.signed));
    expect(signed.gpgsig).toBe(SIGNATURE);
    expect(signed.message).toBe('signed-looking commit\n');
    const unsigned = serializeCommit({ ...signed, gpgsig: undefined });
    expect(unsigned.toString()).not.toContain('gpgsig');
    expect(serializeCommit({ ...parseCommit(unsigned), gpgsig: SIGNATURE }).equals(body(fixture.signed))).toBe(true);
  });

  it('keeps tree entry names as bytes, with a UTF-8 path beside them', () => {
    const entries = parseTree(body(fixture.lightTree));
    const latin1 = entries.find((entry) => entry.name.equals(LATIN1_NAME))!;
    expect(latin1.path).toBe('caf\ufffd.txt');
    expect(entries.find((entry) => entry.path === 'ünïcödé')).toMatchObject({ mode: '40000' });
    expect(entries.find((entry) => entry.path === 'run.sh')).toMatchObject({ mode: '100755' });
    expect(entries.find((entry) => entry.path === 'link')).toMatchObject({ mode: '120000' });
    expect(entries.find((entry) => entry.path === 'vendor')).toMatchObject({ mode: '40000' });
    expect(entries.map((entry) => entry.path)).toContain('src.txt');
  });

  it('sorts tree entries as git does, a directory named as if it ended with /', () => {
    const blob = gitText(fixture.repo, ['hash-object', '-w', '--stdin'], { input: 'x' });
    const tree = gitText(fixture.repo, ['mktree'], { input: '' });
    const names = ['foo', 'foo.txt', 'foo-bar', 'foo0', 'foo.d', 'a', 'B', 'é'];
    const entries = names.map((name, index) => ({ mode: index % 2 === 0 ? '40000' : '100644', name, oid: index % 2 === 0 ? tree : blob }));
    const listing = entries.map((entry) => `${entry.mode === '40000' ? '040000 tree' : '100644 blob'} ${entry.oid}\t${entry.name}\n`).join('');
    const expected = gitText(fixture.repo, ['mktree'], { input: listing });
    expect(hashObject('tree', serializeTree(entries.reverse()))).toBe(expected);
    expect(() => serializeTree([entries[0], entries[0]])).toThrow(MalformedObjectError);
  });

  it('parses tags, including a tag of a tag and tags of trees and blobs', () => {
    const nested = parseTag(body(fixture.nestedTag));
    expect(nested).toMatchObject({ type: 'tag', tag: 'v1-nested', message: 'tag of a tag\n', tagger: { name: 'C O Mitter', timezoneOffset: 120 } });
    expect(parseTag(body(nested.object))).toMatchObject({ type: 'commit', tag: 'v1', message: 'release v1\n\nnotes\n' });
    const types = [...fixture.objects.values()].filter((object) => object.type === 'tag').map((object) => parseTag(object.body).type);
    expect(types.sort()).toEqual(['blob', 'commit', 'tag', 'tree']);
  });

  it('serializes a tag without tagger, as very old tags are', () => {
    const tag = { object: fixture.signed, type: 'commit' as const, tag: 'old', message: 'old style\n' };
    const bytes = serializeTag(tag);
    expect(bytes.toString()).toBe(`object ${fixture.signed}\ntype commit\ntag old\n\nold style\n`);
    expect(parseTag(bytes)).toEqual({ ...tag, extraHeaders: [] });
  });

  it('reads the links of every commit as the full parser does', () => {
    for (const object of fixture.objects.values()) {
      if (object.type !== 'commit') continue;
      const commit = parseCommit(object.body);
      expect(parseCommitLinks(object.body)).toEqual({ tree: commit.tree, parents: commit.parents, date: commit.committer.timestamp });
    }
  });

  it('formats zones from minutes', () => {
    expect([120, -330, 0, 765].map(formatTimezone)).toEqual(['+0200', '-0530', '+0000', '+1245']);
  });

  it('refuses malformed bodies', () => {
    expect(() => parseTree(Buffer.from('100644 name\0short'))).toThrow(MalformedObjectError);
    expect(() => parseCommit(Buffer.from('author x <y> 1 +0000\n\nmsg'))).toThrow(MalformedObjectError);
    expect(() => parseCommit(Buffer.from(`tree ${'a'.repeat(40)}\nauthor nobody\n\nmsg`))).toThrow(MalformedObjectError);
    expect(() => parseTag(Buffer.from(`object ${'a'.repeat(40)}\ntype banana\ntag x\n\n`))).toThrow(MalformedObjectError);
  });
});

describe('commitParents', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const t = 'c'.repeat(40);
  const body = (headers: string) => Buffer.from(`${headers}author A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nmessage\nparent ${a}\n`);

  it('reads the parent lines that follow the tree, as parseCommitLinks does', () => {
    for (const headers of [`tree ${t}\n`, `tree ${t}\nparent ${a}\n`, `tree ${t}\nparent ${a}\nparent ${b}\n`]) {
      expect(commitParents(body(headers))).toEqual(parseCommitLinks(body(headers)).parents);
    }
    expect(commitParents(body(`tree ${t}\nparent ${a}\nparent ${b}\n`))).toEqual([a, b]);
  });

  it('never takes a parent line from the message, and refuses a malformed id', () => {
    expect(commitParents(body(`tree ${t}\n`))).toEqual([]);
    expect(() => commitParents(body(`tree ${t}\nparent ${'z'.repeat(40)}\n`))).toThrow();
  });
});
