/**
 * GitLab's project path validation, the parts the HTTP tests cannot reach: the special-character
 * rule applies only to a new or changed path (`if: :path_changed?`), so a project whose path
 * predates it stays editable; the format and reserved words apply on every save.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/platform/http/errors';
import { validateProject } from '../../shared/projects/commands/project-settings';

const fieldsOf = (run: () => void): Record<string, string[]> | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof ValidationError) return error.fields;
    throw error;
  }
};

describe('validateProject: path', () => {
  it('refuses a new path with a special character first, last or twice in a row', () => {
    for (const path of ['..', 'ends.', '_starts', 'a--b']) {
      expect(fieldsOf(() => validateProject('Name', path, {}))).toEqual({ path: [expect.stringContaining('It must not start with')] });
    }
  });

  it('keeps an unchanged path that predates that rule', () => {
    expect(fieldsOf(() => validateProject('Name', '_legacy.', {}, false))).toBeUndefined();
  });

  it('checks the format and reserved words on every save, and reserved words only on a well-formed path', () => {
    expect(fieldsOf(() => validateProject('Name', 'repo.git', {}, false))).toEqual({ path: [expect.stringContaining('can contain only')] });
    expect(fieldsOf(() => validateProject('Name', 'tree', {}, false))).toEqual({ path: ['tree is a reserved name'] });
    expect(fieldsOf(() => validateProject('Name', '-', {}))).toEqual({
      path: [expect.stringContaining("Cannot start with '-'"), expect.stringContaining('It must not start with')],
    });
  });
});
