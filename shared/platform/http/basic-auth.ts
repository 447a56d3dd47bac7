/** HTTP Basic credentials (`Authorization: Basic base64(username:password)`), as git and curl `--user` send them. */

/** The username and password of an `Authorization: Basic` header; undefined when there is none or it is malformed. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
