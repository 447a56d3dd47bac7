/**
 * The instance's predefined CI/CD variables (GitLab's `CI_SERVER_*` and `CI_API_V4_URL`), from
 * the external URL: a job's environment, and what `rules:` and `include:` of a pipeline's
 * configuration see (an `include: component:` address starts with `$CI_SERVER_FQDN`).
 */
import { config } from '../platform/config';

/** This server's host with its port when not the protocol's (GitLab's `server_fqdn`, `CI_SERVER_FQDN`). */
export function serverFqdn(): string {
  return new URL(config().externalUrl).host;
}

/** The instance's variables, in GitLab's order, as `[name, value]` pairs. */
export function serverVariables(): Array<[string, string]> {
  const base = config().externalUrl;
  const url = new URL(base);
  return [
    ['CI_SERVER_URL', base],
    ['CI_SERVER_HOST', url.hostname],
    ['CI_SERVER_FQDN', url.host],
    ['CI_SERVER_PORT', url.port || (url.protocol === 'https:' ? '443' : '80')],
    ['CI_SERVER_PROTOCOL', url.protocol.replace(':', '')],
    ['CI_SERVER_NAME', 'GitLab'],
    ['CI_API_V4_URL', `${base}/api/v4`],
  ];
}
