/**
 * Variables in the values GitLab expands when it creates a job (`ExpandVariables.expand`): an
 * environment's name and URL. `$VAR`, `${VAR}` and `%VAR%`; a variable the job does not have
 * expands to nothing, as in GitLab. And the slugs GitLab derives from refs and environment names.
 */
import { createHash } from 'node:crypto';

const REFERENCE = /\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|%([A-Za-z_][A-Za-z0-9_]*)%/g;

/** `text` with each variable reference replaced by its value in `variables` (nothing when absent). */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(REFERENCE, (_match, plain?: string, braced?: string, windows?: string) => variables[(plain ?? braced ?? windows)!] ?? '');
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
