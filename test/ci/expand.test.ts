import { describe, expect, it } from 'vitest';
import { environmentSlug, expandAll, expandVariables, VariableExpansionError } from '../../shared/ci/config/expand';
import { invalidName, nameFromWorkflow } from '../../shared/ci/pipeline-name';

describe('environment names and slugs', () => {
  it('expands $VAR, ${VAR} and %VAR%, a variable the job lacks to nothing', () => {
    const variables = { CI_COMMIT_REF_SLUG: 'feature-x', REGION: 'eu' };
    expect(expandVariables('review/$CI_COMMIT_REF_SLUG', variables)).toBe('review/feature-x');
    expect(expandVariables('https://${CI_COMMIT_REF_SLUG}.%REGION%.example.com/$MISSING', variables)).toBe('https://feature-x.eu.example.com/');
    expect(expandVariables('$ 5 and $$', variables)).toBe('$ 5 and $$');
  });

  it('keeps a missing variable as written (expand_existing) and refuses a masked one when asked', () => {
    const variables = { A: '1', SECRET: 's' };
    expect(expandVariables('$A/${B}/%C%/%A%', variables, { keepMissing: true })).toBe('1/${B}/%C%/1');
    expect(expandVariables('$A$SECRET', variables, { failOnMasked: new Set(['OTHER']) })).toBe('1s');
    for (const text of ['$SECRET', '${SECRET}', '%SECRET%']) {
      expect(() => expandVariables(text, variables, { keepMissing: true, failOnMasked: new Set(['SECRET']) })).toThrow(VariableExpansionError);
    }
  });

  // GitLab's own cases (spec/lib/gitlab/slug/environment_spec.rb), with its digest stubbed the same way.
  it.each([
    ['staging-12345678901234567', 'staging-123456789-q517sa'],
    ['9-staging-123456789012345', 'env-9-staging-123-q517sa'],
    ['staging-1234567890123456', 'staging-1234567890123456'],
    ['staging-1234567890123456-', 'staging-123456789-q517sa'],
    ['production', 'production'],
    ['PRODUCTION', 'production-q517sa'],
    ['review/1-foo', 'review-1-foo-q517sa'],
    ['1/foo', 'env-1-foo-q517sa'],
    ['foo-', 'foo'],
    ['foo--bar', 'foo-bar-q517sa'],
    ['*-foo', 'env-foo-q517sa'],
    ['staging-12345678-', 'staging-12345678'],
    ['staging-12345678-01234567', 'staging-12345678-q517sa'],
    ['', 'env-q517sa'],
  ])('slugs %j as %s', (name, slug) => {
    expect(environmentSlug(name, () => 'a'.repeat(64))).toBe(slug);
  });
});

describe('pipeline names', () => {
  it('expands nested variables (sort_and_expand_all), none when they make a cycle; strips, cuts at 255, refuses blank names', () => {
    expect(expandAll({ A: 'x$B', B: '${C}-%C%', C: 'c', D: '$MISSING' })).toEqual({ A: 'xc-c', B: 'c-c', C: 'c', D: '$MISSING' });
    expect(expandAll({ A: '$B', B: '$A', C: '$A' })).toEqual({ A: '$B', B: '$A', C: '$A' });
    expect(nameFromWorkflow('  Deploy main  ')).toBe('Deploy main');
    expect(nameFromWorkflow('   ')).toBeUndefined();
    expect(nameFromWorkflow('é'.repeat(300))).toBe('é'.repeat(255));
    expect(invalidName('')).toBe('Name is too short (minimum is 1 character)');
    expect(invalidName('x'.repeat(256))).toBe('Name is too long (maximum is 255 characters)');
    expect(invalidName('x'.repeat(255))).toBeUndefined();
  });
});
