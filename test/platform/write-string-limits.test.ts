/**
 * Every string a write route stores has a declared length limit (`p.string({ max })` or
 * `limitedString`, published as `maxLength`), so no single parameter can push an item past
 * DynamoDB's 400 KB or a list page past Lambda's 6 MB, and the refusal is GitLab's 400. The
 * strings left without one are listed below, each with the reason it needs none; a new write
 * parameter must either declare its limit or join this list with its reason.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { routeDefinitions } from '../../infra/openapi-routes';
import { allRoutes } from '../../shared/catalog';

/** Strings of write routes that need no length limit, by route (a pattern of `METHOD /path`) and name. */
const UNLIMITED: ReadonlyArray<{ routes: RegExp; fields: readonly string[]; why: string }> = [
  { routes: /./, fields: ['expires_at', 'created_at', 'updated_at', 'released_at', 'before'], why: 'dates and timestamps: parsed, anything else is 400' },
  { routes: /^(POST|PUT) \/projects\/:id\/(fork|transfer)$/, fields: ['namespace', 'namespace_path'], why: 'looked up, never stored' },
  { routes: /\/labels(\/promote|\/:label_id)?$/, fields: ['name'], why: 'the label to change or promote (PUT …/labels/promote), looked up' },
  { routes: /\/links$/, fields: ['target_project_id'], why: 'looked up' },
  { routes: /\/award_emoji$/, fields: ['name'], why: 'one of a fixed list of emoji names' },
  { routes: /\/(time_estimate|add_spent_time)$/, fields: ['duration'], why: 'parsed as a duration' },
  { routes: /^POST \/projects\/:id\/issues$/, fields: ['discussion_to_resolve'], why: 'ignored (no merge request to resolve)' },
  { routes: /\/merge_requests\/:merge_request_iid\/approve$/, fields: ['approval_password'], why: "ignored (GitLab Premium's password to approve)" },
  { routes: /\/merge_requests/, fields: ['source_branch', 'target_branch', 'sha'], why: 'refs and commits, looked up' },
  { routes: /\/repository\/|\/pipeline$/, fields: ['branch', 'start_branch', 'start_sha', 'ref', 'tag_name', 'last_commit_id'], why: 'refs: checked by the ref name rules (at most 1,000 bytes) or looked up' },
  { routes: /^POST \/projects\/:id\/releases$/, fields: ['tag_name', 'ref'], why: 'refs: checked by the ref name rules (at most 1,000 bytes) or looked up' },
  { routes: /^POST \/projects\/:id\/releases$/, fields: ['tag_message'], why: "written into the tag's git object (S3); GitLab sets no limit" },
  { routes: /\/repository\//, fields: ['commit_message', 'message', 'content', 'author_email', 'author_name'], why: 'written into git objects (S3); GitLab sets no limit' },
  { routes: /\/wikis(\/:slug)?$/, fields: ['content'], why: "a wiki page's file, written into git objects (S3); GitLab sets no limit" },
  { routes: /\/wikis\/attachments$/, fields: ['branch'], why: "ignored: attachments go on the wiki's branch" },
  { routes: /\/snippets(\/:snippet_id|\/:id)?$/, fields: ['content'], why: 'stored in S3, bounded by SNIPPET_SIZE_LIMIT with GitLab\'s "Content is too long" (commands/snippets.ts)' },
  { routes: /^POST \/projects\/:id\/terraform\/state\/:name\/lock$/, fields: ['Operation', 'Info', 'Who', 'Version', 'Created', 'Path'], why: "Terraform's lock info: echoed back in the answer, never stored (GitLab keeps only the ID, the user and the time)" },
  { routes: /\/notification_settings$/, fields: ['level'], why: 'one of a fixed list of levels, checked by the route' },
  { routes: /^PUT \/notification_settings$/, fields: ['notification_email'], why: "stored only when it is one of the caller's emails (looked up)" },
  { routes: /\/trigger\/pipeline$/, fields: ['token'], why: 'a trigger token, looked up by its digest' },
  {
    routes: /^(POST|PUT|PATCH) \/(runners|jobs)\b/,
    fields: ['token', 'system_id', 'last_update', 'failure_reason', 'checksum', 'content_range', 'chunk', 'artifact_type', 'expire_in'],
    why: "the runner protocol: tokens looked up, values parsed or mapped to a fixed set, trace chunks stored in S3",
  },
];

/** Internal: the shape of a route's params schema, also behind refinements. */
function shapeOf(schema: unknown): Record<string, z.ZodType> {
  let current = schema as { shape?: Record<string, z.ZodType>; _zod?: { def: { in?: unknown; innerType?: unknown } } } | undefined;
  while (current && !current.shape) current = (current._zod?.def.in ?? current._zod?.def.innerType) as typeof current;
  return current?.shape ?? {};
}

/** Internal: whether a field takes free text (a string, or a list of strings) and whether it is bounded. */
function freeText(field: z.ZodType): { text: boolean; bounded: boolean } {
  const json = z.toJSONSchema(field, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const node = (json.type === 'array' ? json.items : json) as Record<string, unknown> | undefined;
  const text = node?.type === 'string' && node.enum === undefined && node.format === undefined;
  return { text, bounded: typeof node?.maxLength === 'number' };
}

describe('write routes: string length limits', () => {
  const unbounded: string[] = [];
  for (const route of allRoutes()) {
    if (!['POST', 'PUT', 'PATCH'].includes(route.method)) continue;
    const table = routeDefinitions[route.group] as Record<string, { params?: unknown }>;
    const pathNames = new Set([...route.key.matchAll(/:([a-z_]+)\+?/g)].map((m) => m[1]));
    for (const [name, field] of Object.entries(shapeOf(table[route.key]?.params))) {
      if (pathNames.has(name)) continue;
      const { text, bounded } = freeText(field);
      if (!text || bounded) continue;
      if (UNLIMITED.some((entry) => entry.routes.test(route.key) && entry.fields.includes(name))) continue;
      unbounded.push(`${route.key} ${name}`);
    }
  }

  it('declares a maximum length for every stored string parameter', () => {
    expect(unbounded).toEqual([]);
  });
});
