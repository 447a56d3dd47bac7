/** HTTP Basic credentials, as git sends them once the server answers 401 with `WWW-Authenticate: Basic`. */

/** The username and password of an `Authorization: Basic` header; undefined when there is none or it is malformed. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Who a CI job token clones as: the CI feature (above the repository) registers how to resolve
 * one (`gitlab-ci-token:<job token>` while the job runs: its project, read only), through the
 * composition root. Undefined when no resolver is registered or the token is not a running job's.
 */
export type JobTokenResolver = (token: string) => Promise<{ projectId: number; userId: number | null } | undefined>;

let jobTokenResolver: JobTokenResolver | undefined;

export function resolveJobTokensWith(resolver: JobTokenResolver): void {
  jobTokenResolver = resolver;
}

/** The job a `gitlab-ci-token` credential belongs to, if it is one. */
export async function jobTokenCredential(credentials: { username: string; password: string }): Promise<{ projectId: number; userId: number | null } | undefined> {
  if (credentials.username !== 'gitlab-ci-token' || !jobTokenResolver) return undefined;
  return jobTokenResolver(credentials.password);
}
