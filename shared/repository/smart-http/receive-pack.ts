/**
 * `POST …/git-receive-pack`: a push. The request is parsed by the protocol library, applied by
 * {@link push}, and answered with the report-status (on band 1 when the client multiplexes),
 * after the progress messages and GitLab's hint to open a merge request for a new branch.
 */
import { deletesOnly, packHeaderError, parseReceivePackRequest, receivePackResponse } from '../git/protocol/receive-pack';
import { sideband } from '../git/protocol/sideband';
import { config } from '../../platform/config';
import { webUrlOf, projectFullPath } from '../../projects';
import { ZERO_OID } from '../repository';
import { push, type PushContext } from './push';

/** GitLab's post-receive message after a new branch is pushed: where to open its merge request. */
function mergeRequestHint(context: PushContext, branch: string): string {
  const base = webUrlOf(projectFullPath(context.subject.namespace, context.repository.project));
  const url = `${base}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`;
  return `\nTo create a merge request for ${branch}, visit:\n  ${url}\n\n`;
}

/** Why a push is refused for its size, and what to do instead (side band 2, before the report). */
function pushTooLarge(bytes: number): string {
  const mb = (n: number) => (n / 1_000_000).toFixed(1);
  return `\nThis push is ${mb(bytes)} MB; one push may carry at most ${mb(config().maxPushBytes)} MB here.\n` +
    'Push the history in steps, oldest first: git push origin <commit>:refs/heads/<branch>\n\n';
}

/** Answers one push; `notice` (the project moved, GitLab's `ContainerMoved`) is shown before anything else. */
export async function receivePack(context: Omit<PushContext, 'progress'>, body: Buffer, notice?: string): Promise<Buffer> {
  const request = parseReceivePackRequest(body);
  const multiplexed = request.capabilities.includes('side-band-64k');
  const quiet = request.capabilities.includes('quiet');
  const messages: Buffer[] = [];
  // Messages show on git's `remote:` lines; progress only when the client did not ask for quiet.
  const say = (text: string) => {
    if (multiplexed) messages.push(sideband(2, text, 'side-band-64k'));
  };
  const progress = (text: string) => {
    if (!quiet) say(text);
  };
  if (request.commands.length === 0) return Buffer.alloc(0);
  if (notice) say(notice);

  const expectsPack = !deletesOnly(request);
  const tooLarge = body.length > config().maxPushBytes;
  if (tooLarge) say(pushTooLarge(body.length));
  const headerError = tooLarge ? 'pack exceeds the maximum push size' : expectsPack ? packHeaderError(body, request.packOffset) : undefined;
  const commands = request.commands.map((command) => ({ oldOid: command.oldOid, newOid: command.newOid, name: command.ref }));
  const outcome = headerError
    ? { unpack: headerError, results: commands.map(({ name }) => ({ name, error: 'unpacker error' })) }
    : await push({ ...context, progress }, commands, expectsPack ? body.subarray(request.packOffset) : undefined, {
        atomic: request.capabilities.includes('atomic'),
      });

  const mergeRequestsEnabled = context.repository.kind === 'project' && context.repository.project.mergeRequestsEnabled;
  outcome.results.forEach((result, i) => {
    const command = commands[i];
    const newBranch = command.oldOid === ZERO_OID && command.newOid !== ZERO_OID && command.name.startsWith('refs/heads/');
    const branch = command.name.slice('refs/heads/'.length);
    if (!result.error && newBranch && mergeRequestsEnabled && branch !== context.repository.project.defaultBranch) say(mergeRequestHint(context, branch));
  });
  const report = receivePackResponse(
    request,
    outcome.unpack === 'ok' ? undefined : outcome.unpack,
    outcome.results.map(({ name, error }) => ({ ref: name, error })),
  );
  return Buffer.concat([...messages, report]);
}
