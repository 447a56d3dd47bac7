/**
 * A runner's REST status and the list filters, as GitLab computes them: online within 2 hours of
 * its last contact, stale 7 days after its creation or last contact, `paused` before
 * online/offline, never contacted until it calls; `type`, `status`, `scope`, `paused` and
 * `tag_list` (every tag given) filter lists.
 */
import { describe, expect, it } from 'vitest';
import { presentRunner, runnerStatus } from '../../shared/ci/presenters/runners';
import { runnerMatchesFilters } from '../../shared/ci/queries/runners';
import type { Runner } from '../../shared/ci/store/runners';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function runner(overrides: Partial<Runner> = {}): Runner {
  return {
    id: 7,
    tokenDigest: 'digest',
    projectId: 1,
    description: 'r',
    active: true,
    locked: true,
    runUntagged: true,
    tags: ['docker', 'linux'],
    maximumTimeout: null,
    accessLevel: 'not_protected',
    info: {},
    ipAddress: null,
    contactedAt: null,
    createdAt: ago(HOUR),
    ...overrides,
  };
}

describe('runnerStatus', () => {
  it.each([
    ['never_contacted', runner()],
    ['online', runner({ contactedAt: ago(HOUR) })],
    ['offline', runner({ contactedAt: ago(3 * HOUR) })],
    ['paused', runner({ active: false, contactedAt: ago(HOUR) })],
    ['never_contacted', runner({ active: false })],
    ['stale', runner({ createdAt: ago(8 * DAY) })],
    ['stale', runner({ createdAt: ago(30 * DAY), contactedAt: ago(8 * DAY) })],
    ['offline', runner({ createdAt: ago(30 * DAY), contactedAt: ago(6 * DAY) })],
  ])('is %s', (status, subject) => {
    expect(runnerStatus(subject, NOW)).toBe(status);
  });
});

describe('runnerMatchesFilters', () => {
  const online = runner({ contactedAt: ago(HOUR) });
  const paused = runner({ active: false, contactedAt: ago(5 * HOUR), tags: ['docker'] });

  it.each([
    [{ type: 'project_type' }, true, true],
    [{ type: 'instance_type' }, false, false],
    [{ scope: 'shared' }, false, false],
    [{ scope: 'specific' }, true, true],
    [{ status: 'online' }, true, false],
    [{ status: 'offline' }, false, true],
    [{ status: 'active' }, true, false],
    [{ status: 'paused' }, false, true],
    [{ status: 'never_contacted' }, false, false],
    [{ paused: true }, false, true],
    [{ paused: false }, true, false],
    [{ tagList: ['docker'] }, true, true],
    [{ tagList: ['docker', 'linux'] }, true, false],
    [{ tagList: ['arm'] }, false, false],
  ])('%o keeps the online runner: %s, the paused one: %s', (filters, keepsOnline, keepsPaused) => {
    expect(runnerMatchesFilters(online, filters, NOW)).toBe(keepsOnline);
    expect(runnerMatchesFilters(paused, filters, NOW)).toBe(keepsPaused);
  });
});

describe('presentRunner', () => {
  it("shows GitLab's runner entity and never the token or its digest", () => {
    const shown = presentRunner(runner({ info: { name: 'gitlab-runner' }, createdAt: new Date().toISOString() }));
    expect(shown).toEqual({
      id: 7,
      description: 'r',
      ip_address: null,
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      name: 'gitlab-runner',
      online: false,
      created_at: expect.any(String),
      status: 'never_contacted',
    });
    expect(JSON.stringify(shown)).not.toContain('digest');
  });
});
