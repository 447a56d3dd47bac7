/**
 * Variables in the values GitLab expands (`ExpandVariables`): an environment's name and URL when
 * it creates a job, and an input's `expand_vars` function. `$VAR`, `${VAR}` and `%VAR%`. And the
 * slugs GitLab derives from refs and environment names.
 */
import { createHash } from 'node:crypto';

const REFERENCE = /\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|%([A-Za-z_][A-Za-z0-9_]*)%/g;

/** A masked variable referenced where `failOnMasked` refuses it (GitLab's `VariableExpansionError`). */
export class VariableExpansionError extends Error {}

export interface ExpandOptions {
  /** GitLab's `expand_existing`: a variable the job lacks stays as written (else it expands to nothing). */
  keepMissing?: boolean;
  /** Names of masked variables: referencing one throws {@link VariableExpansionError} (GitLab's `fail_on_masked`). */
  failOnMasked?: ReadonlySet<string>;
}

/**
 * `text` with each variable reference replaced by its value in `variables`: a variable absent
 * expands to nothing (GitLab's `expand`), or stays as written with `keepMissing` (`expand_existing`).
 *
 * @example
 * expandVariables('$A-${B}-%C%', { A: '1' }); // '1--'
 * expandVariables('$A-${B}', { A: '1' }, { keepMissing: true }); // '1-${B}'
 */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>, options: ExpandOptions = {}): string {
  return text.replace(REFERENCE, (reference, plain?: string, braced?: string, windows?: string) => {
    const name = (plain ?? braced ?? windows)!;
    if (!Object.hasOwn(variables, name)) return options.keepMissing ? reference : '';
    if (options.failOnMasked?.has(name)) throw new VariableExpansionError('masked variables cannot be expanded');
    return variables[name];
  });
}

/**
 * Every value with the variables it references expanded, nested ones too (GitLab's
 * `sort_and_expand_all`): a reference to a missing variable stays as written, and when the
 * references make a cycle nothing is expanded (GitLab's sort then fails and the collection is
 * used as it is).
 *
 * @example
 * expandAll({ A: 'x$B', B: '$C', C: 'c' }); // { A: 'xc', B: 'c', C: 'c' }
 */
export function expandAll(variables: Readonly<Record<string, string>>): Record<string, string> {
  const done = new Map<string, string>();
  const visiting = new Set<string>();
  let cyclic = false;
  const resolve = (name: string): string => {
    const known = done.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) {
      cyclic = true;
      return variables[name];
    }
    visiting.add(name);
    const value = variables[name].replace(REFERENCE, (reference, plain?: string, braced?: string, windows?: string) => {
      const referenced = (plain ?? braced ?? windows)!;
      return Object.hasOwn(variables, referenced) ? resolve(referenced) : reference;
    });
    visiting.delete(name);
    done.set(name, value);
    return value;
  };
  const expanded = Object.fromEntries(Object.keys(variables).map((name) => [name, resolve(name)]));
  return cyclic ? { ...variables } : expanded;
}

/** `CI_COMMIT_REF_SLUG`: lower case, every other character a dash, at most 63, no dash at either end. */
export const refSlug = (ref: string): string => ref.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');

/**
 * `CI_ENVIRONMENT_SLUG` (GitLab's `Gitlab::Slug::Environment`): lower-case letters, digits and
 * single dashes, starting with a letter, at most 24 characters; a slug that differs from the name
 * is cut to 17 and given a 6-character suffix from the name's SHA-256, so that it stays unique.
 */
export function environmentSlug(name: string, digest: (text: string) => string = sha256): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '');
  const short = slug.slice(0, 17);
  const suffix = BigInt(`0x${digest(name)}`).toString(36).slice(-6);
  return `${short}${short.endsWith('-') ? '' : '-'}${suffix}`;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
