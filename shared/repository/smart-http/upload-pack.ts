/**
 * `POST …/git-upload-pack`: one stateless round of a clone or fetch, in protocol v0/v1 or v2.
 * The negotiation and the choice of objects are the protocol library's; this module checks the
 * wants against the repository's refs (a fork's pool holds objects of other repositories, which
 * must not be fetchable by id) and streams the pack, reusing stored deltas, on the side band.
 */
import type { Logger } from '../../platform/logger';
import { parseCommandRequest, parseLsRefsArgs, lsRefs, type ProtocolVersion } from '../git/protocol/advertise';
import { ProtocolError } from '../git/protocol/errors';
import { errorPkt, FLUSH_PKT } from '../git/protocol/pkt-line';
import { progressLine, sideband, sidebandMode, type SidebandMode } from '../git/protocol/sideband';
import { answerFetch, answerUploadPack, parseFetchArgs, parseUploadPackRequest, type UploadPackAnswer } from '../git/protocol/upload-pack';
import { writePack } from '../git/pack/pack-writer';
import type { Repository } from '../repository';
import type { Ref } from '../store/refs';
import { headRef } from './advertise';

/** Refuses wants that no ref of this repository points at (git's "not our ref"). */
function checkOurRefs(wants: readonly string[], refs: readonly Ref[]): void {
  const ours = new Set(refs.flatMap((ref) => (ref.peeled ? [ref.oid, ref.peeled] : [ref.oid])));
  const foreign = wants.find((want) => !ours.has(want));
  if (foreign) throw new ProtocolError(`upload-pack: not our ref ${foreign}`);
}

/** The head of the answer, then the pack on band 1 with progress on band 2 (unless `no-progress`), then a flush. */
async function withPack(repository: Repository, answer: UploadPackAnswer, mode: SidebandMode | undefined, features: readonly string[]): Promise<Buffer> {
  const parts: Buffer[] = [answer.head];
  if (!answer.pack) return Buffer.concat(parts);
  const progress = mode && !features.includes('no-progress');
  const say = (text: string) => progress && parts.push(sideband(2, text, mode));
  const objects = answer.pack.oids;
  say(progressLine('Enumerating objects', objects.length, undefined, true));
  const packs = await repository.packSet();
  let reported = -1;
  await writePack(
    objects.map((oid) => ({ oid })),
    packs,
    {
      ofsDelta: features.includes('ofs-delta'),
      thin: false,
      clientHas: () => false,
      onProgress: (done, total) => {
        const percent = Math.floor((done * 100) / total);
        if (percent >= reported + 20 || done === total) {
          reported = percent;
          say(progressLine('Sending objects', done, total, done === total));
        }
      },
    },
    (chunk) => {
      parts.push(mode ? sideband(1, chunk, mode) : chunk);
    },
  );
  if (mode) parts.push(FLUSH_PKT);
  return Buffer.concat(parts);
}

async function answerV0(repository: Repository, body: Buffer): Promise<Buffer> {
  const request = parseUploadPackRequest(body);
  const refs = await repository.refs();
  checkOurRefs(request.wants, refs);
  const answer = await answerUploadPack(request, { read: (oid) => repository.read(oid), refs });
  return withPack(repository, answer, sidebandMode(request.capabilities), request.capabilities);
}

async function answerV2(repository: Repository, body: Buffer): Promise<Buffer> {
  const command = parseCommandRequest(body);
  if (!command) return Buffer.alloc(0);
  const refs = await repository.refs();
  if (command.command === 'ls-refs') return lsRefs(parseLsRefsArgs(command.args), refs, headRef(repository));
  const request = parseFetchArgs(command.args);
  checkOurRefs(request.wants, refs);
  const answer = await answerFetch(request, { read: (oid) => repository.read(oid), refs });
  return withPack(repository, answer, 'side-band-64k', request.features);
}

export async function uploadPack(repository: Repository, body: Buffer, version: ProtocolVersion, log: Logger): Promise<Buffer> {
  try {
    return version === 2 ? await answerV2(repository, body) : await answerV0(repository, body);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    log.info('upload-pack refused', { reason: error.message });
    return errorPkt(error.message);
  }
}
