/** `GET info/refs?service=…`: the ref advertisement, from the refs alone (no object is read). */
import { config } from '../../platform/config';
import { advertiseRefs, type ProtocolVersion, type Service } from '../git/protocol/advertise';
import type { Repository } from '../repository';
import { isHiddenFromPush } from './push';

/** What this server calls itself in the `agent` capability. */
export const agent = (): string => `project-hosting/${config().version}`;

/** The ref HEAD points at: the project's default branch (a wiki's: its own branch). */
export const headRef = (repository: Repository): string => `refs/heads/${repository.headBranch}`;

export async function advertise(repository: Repository, service: Service, version: ProtocolVersion): Promise<Buffer> {
  // A v2 upload-pack advertisement lists capabilities only; refs come with `ls-refs`.
  const all = version === 2 && service === 'git-upload-pack' ? [] : await repository.refs();
  const refs = service === 'git-receive-pack' ? all.filter((ref) => !isHiddenFromPush(ref.name)) : all;
  return advertiseRefs(service, { refs, head: headRef(repository), agent: agent(), version });
}
