/**
 * `POST …/git-upload-pack`: one stateless round of a clone or fetch, in protocol v0/v1 or v2.
 * The negotiation and the choice of objects are the protocol library's; this module checks the
 * wants against the repository's refs (a fork's pool holds objects of other repositories, which
 * must not be fetchable by id) and streams the pack, reusing stored deltas, on the side band, as
 * the client reads it.
 */
import type { Logger } from '../../platform/logger';
import { parseCommandRequest, parseLsRefsArgs, lsRefs, type ProtocolVersion } from '../git/protocol/advertise';
import { ProtocolError } from '../git/protocol/errors';
import { errorPkt, FLUSH_PKT } from '../git/protocol/pkt-line';
import { progressLine, sideband, SIDEBAND_PACKET_MAX, sidebandMode, type SidebandMode } from '../git/protocol/sideband';
import { answerFetch, answerUploadPack, parseFetchArgs, parseUploadPackRequest, type UploadPackAnswer } from '../git/protocol/upload-pack';
import { writePack } from '../git/pack/pack-writer';
import type { Repository } from '../repository';
import type { Ref } from '../store/refs';
import { headRef } from './advertise';
import { producedChunks } from './chunks';

/** Refuses wants that no ref of this repository points at (git's "not our ref"). */
function checkOurRefs(wants: readonly string[], refs: readonly Ref[]): void {
  const ours = new Set(refs.flatMap((ref) => (ref.peeled ? [ref.oid, ref.peeled] : [ref.oid])));
  const foreign = wants.find((want) => !ours.has(want));
  if (foreign) throw new ProtocolError(`upload-pack: not our ref ${foreign}`);
}

/**
 * Pack data on band 1, in the packets `sideband(1, data, mode)` makes, written straight into one
 * buffer (the whole pack goes through here: one copy instead of three).
 */
export function packDataPackets(data: Buffer, mode: SidebandMode): Buffer {
  const room = SIDEBAND_PACKET_MAX[mode] - 5;
  const out = Buffer.allocUnsafe(data.length + Math.ceil(data.length / room) * 5);
  let at = 0;
  for (let start = 0; start < data.length; start += room) {
    const end = Math.min(start + room, data.length);
    const length = end - start + 5;
    out.write(length.toString(16).padStart(4, '0'), at, 'latin1');
    out[at + 4] = 1;
    data.copy(out, at + 5, start, end);
    at += length;
  }
  return out;
}

/**
 * The head of the answer, then the pack on band 1 with progress on band 2 (unless `no-progress`),
 * then a flush: a stream of chunks, the pack written as the client reads it (never whole in
 * memory). The objects are chosen before: a refusal still answers an error packet. A `notice`
 * (the project moved) goes first on band 2, even with `no-progress`: it is a message, not progress.
 */
function withPack(
  repository: Repository,
  answer: UploadPackAnswer,
  mode: SidebandMode | undefined,
  features: readonly string[],
  notice?: string,
): Buffer | AsyncIterable<Buffer> {
  const pack = answer.pack;
  if (!pack) return answer.head;
  return producedChunks(async (write) => {
    const progress = mode && !features.includes('no-progress');
    // Progress lines wait for the next pack chunk (git prints them as they come anyway).
    let pending: Buffer[] = [answer.head, ...(mode && notice ? [sideband(2, notice, mode)] : [])];
    const say = (text: string) => progress && pending.push(sideband(2, text, mode));
    const send = async (chunk: Buffer) => {
      pending.push(chunk);
      const parts = pending;
      pending = [];
      await write(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    };
    const objects = pack.oids;
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
      (chunk) => send(mode ? packDataPackets(chunk, mode) : chunk),
    );
    await send(mode ? FLUSH_PKT : Buffer.alloc(0));
  });
}

async function answerV0(repository: Repository, body: Buffer, notice?: string): Promise<Buffer | AsyncIterable<Buffer>> {
  const request = parseUploadPackRequest(body);
  const refs = await repository.refs();
  checkOurRefs(request.wants, refs);
  const answer = await answerUploadPack(request, { read: (oid) => repository.read(oid), refs });
  return withPack(repository, answer, sidebandMode(request.capabilities), request.capabilities, notice);
}

async function answerV2(repository: Repository, body: Buffer, notice?: string): Promise<Buffer | AsyncIterable<Buffer>> {
  const command = parseCommandRequest(body);
  if (!command) return Buffer.alloc(0);
  const refs = await repository.refs();
  if (command.command === 'ls-refs') return lsRefs(parseLsRefsArgs(command.args), refs, headRef(repository));
  const request = parseFetchArgs(command.args);
  checkOurRefs(request.wants, refs);
  const answer = await answerFetch(request, { read: (oid) => repository.read(oid), refs });
  return withPack(repository, answer, 'side-band-64k', request.features, notice);
}

/**
 * Answers one upload-pack request: a buffer (negotiation, refusals), or the chunks of an answer
 * carrying a pack, produced as they are read; `notice` (the project moved) is shown with the pack.
 */
export async function uploadPack(repository: Repository, body: Buffer, version: ProtocolVersion, log: Logger, notice?: string): Promise<Buffer | AsyncIterable<Buffer>> {
  try {
    return version === 2 ? await answerV2(repository, body, notice) : await answerV0(repository, body, notice);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    log.info('upload-pack refused', { reason: error.message });
    return errorPkt(error.message);
  }
}
