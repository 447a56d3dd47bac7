/**
 * `npx tsx test/bench/trace.ts`: the DynamoDB calls of one request of each hot path, listed one
 * by one (operation and the keys, conditions or index it reads), for finding where round trips
 * go. Starts the local runtime like the benchmarks (./support.ts), seeds a public project with a
 * few labelled issues as root, then makes each request twice (the first warms caches) and prints
 * the calls of the second.
 *
 * Environment: `TRACE_ONLY` a regular expression of the request names to trace.
 */
import { RECENT_WINDOW_MS } from '../../shared/platform/dynamo/recent';
import { call, describe, runBench, type Target } from './support';

interface Command {
  name: string;
  input: Record<string, unknown>;
}

/** Internal: one line per call, with what it touches. */
function summarize({ name, input }: Command): string {
  const keyOf = (key: unknown) => (key && typeof key === 'object' ? `${(key as { PK?: string }).PK}|${(key as { SK?: string }).SK}` : '');
  if (name === 'TransactWriteItems') {
    const items = (input.TransactItems as Array<Record<string, { Key?: unknown; Item?: unknown }>>).map((item) => {
      const [op, body] = Object.entries(item)[0];
      return `${op} ${keyOf(body.Key ?? body.Item)}`;
    });
    return `${name} (${items.length})\n      ${items.join('\n      ')}`;
  }
  if (name === 'BatchGetItem' || name === 'BatchWriteItem') {
    const requests = Object.values(input.RequestItems as Record<string, unknown>)[0] as { Keys?: unknown[] } | Array<Record<string, { Item?: unknown; Key?: unknown }>>;
    const keys = Array.isArray(requests) ? requests.map((r) => Object.entries(r).map(([op, b]) => `${op} ${keyOf(b.Item ?? b.Key)}`)[0]) : (requests.Keys ?? []).map(keyOf);
    return `${name} (${keys.length})\n      ${keys.join('\n      ')}`;
  }
  if (name === 'Query') {
    return `${name} ${input.IndexName ?? 'table'} ${JSON.stringify(input.ExpressionAttributeValues)} limit=${input.Limit}`;
  }
  return `${name} ${keyOf(input.Key ?? input.Item)} ${input.UpdateExpression ?? ''}`;
}

runBench(async (session) => {
  const { target } = await session.start({ rootToken: 'trace-root-token-0123456789' });
  const { db } = await import('../../shared/platform/dynamo/client');
  let log: Command[] | undefined;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const name = String((context as { commandName?: string }).commandName ?? 'unknown').replace(/Command$/, '');
      log?.push({ name, input: (args as { input: Record<string, unknown> }).input });
      return next(args);
    },
    { step: 'initialize', name: 'traceCalls' },
  );
  const only = process.env.TRACE_ONLY ? new RegExp(process.env.TRACE_ONLY, 'i') : undefined;
  const must = async (t: Target, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const reply = await call(t, method, path, body);
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${describe(reply)}`);
    return reply.body as Record<string, unknown>;
  };
  const project = await must(target, 'POST', '/projects', { name: 'trace', visibility: 'public' });
  const id = project.id as number;
  const milestone = await must(target, 'POST', `/projects/${id}/milestones`, { title: 'v1' });
  for (let i = 0; i < 5; i++) await must(target, 'POST', `/projects/${id}/issues`, { title: `widget issue ${i}`, labels: 'bug,ui', assignee_ids: [1], milestone_id: milestone.id });
  let n = 0;
  const fresh = () => `trace${++n}`;
  const user = await must(target, 'POST', '/users', { username: fresh(), email: `${fresh()}@example.com`, name: 'Trace', password: 'secret-password' });
  // A body may be made anew for each of the two requests (creates of unique names).
  const requests: Array<[string, 'GET' | 'POST', string, unknown?]> = [
    ['GET /user', 'GET', '/user'],
    ['GET /projects/:id', 'GET', `/projects/${id}`],
    ['GET issues', 'GET', `/projects/${id}/issues`],
    ['GET issues labels', 'GET', `/projects/${id}/issues?labels=bug`],
    ['GET issues labels small page', 'GET', `/projects/${id}/issues?labels=bug&per_page=2`],
    ['GET issues milestone', 'GET', `/projects/${id}/issues?milestone=v1`],
    ['GET issues assignee', 'GET', `/projects/${id}/issues?assignee_id=1`],
    ['GET issues closed', 'GET', `/projects/${id}/issues?state=closed`],
    ['GET issue', 'GET', `/projects/${id}/issues/1`],
    ['POST issue', 'POST', `/projects/${id}/issues`, { title: 'a widget', description: 'some words here', labels: 'bug,ui', assignee_ids: [1], milestone_id: milestone.id }],
    ['POST note', 'POST', `/projects/${id}/issues/2/notes`, { body: 'a comment' }],
    ['POST user', 'POST', '/users', () => ({ username: fresh(), email: `${fresh()}@example.com`, name: 'Trace', password: 'secret-password' })],
    ['POST impersonation token', 'POST', `/users/${user.id}/impersonation_tokens`, () => ({ name: fresh(), scopes: ['api'] })],
    ['POST project', 'POST', '/projects', () => ({ name: fresh() })],
    ['POST group', 'POST', '/groups', () => ({ name: fresh(), path: fresh() })],
    ['POST member', 'POST', `/projects/${id}/members`, () => ({ user_id: (user.id as number), access_level: 30 })],
    ['POST wiki page', 'POST', `/projects/${id}/wikis`, () => ({ title: fresh(), content: 'some words' })],
  ];
  // The reads come first and see the steady state: no journaled write within the window (`recent.ts`).
  await new Promise((resolve) => setTimeout(resolve, RECENT_WINDOW_MS));
  for (const [name, method, path, body] of requests) {
    if (only && !only.test(name)) continue;
    const make = () => (typeof body === 'function' ? (body as () => unknown)() : body);
    await must(target, method, path, make());
    log = [];
    await must(target, method, path, make());
    const calls = log;
    log = undefined;
    console.log(`\n## ${name}: ${calls.length} calls`);
    for (const command of calls) console.log(`  - ${summarize(command)}`);
  }
  return 0;
});
