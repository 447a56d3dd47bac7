/**
 * What the Jobs API and the runner API serve from S3: a job's artifacts archive (streamed, never
 * whole in memory; 404 when there is none or it expired) and its trace (the archived object of an
 * ended job, streamed; the chunks of a running one).
 */
import { NotFoundError } from '../../platform/http/errors';
import type { HttpResult } from '../../platform/http/response';
import { openArchivedTrace, openArtifacts, readTraceChunks, type OpenedObject } from '../store/blobs';
import type { Job } from '../store/pipelines';
import { COMPLETED } from '../status';

const streamed = (opened: OpenedObject, contentType: string, headers: Record<string, string>): HttpResult => ({
  statusCode: 200,
  headers,
  stream: { chunks: opened.chunks, contentType, length: opened.length },
});

const expired = (job: Job) => job.artifacts?.expireAt != null && Date.parse(job.artifacts.expireAt) < Date.now();

export async function artifactsDownload(job: Job | undefined): Promise<HttpResult> {
  if (!job?.artifacts || expired(job)) throw new NotFoundError();
  const opened = await openArtifacts(job.id);
  if (!opened) throw new NotFoundError();
  const { filename } = job.artifacts;
  const disposition = `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return streamed(opened, 'application/octet-stream', { 'Content-Disposition': disposition });
}

export async function traceDownload(job: Job): Promise<HttpResult> {
  if (job.erasedAt) throw new NotFoundError();
  const headers = { 'Content-Disposition': `infile; filename="${job.id}.log"` };
  if (COMPLETED.has(job.status) && job.traceArchived) {
    const opened = await openArchivedTrace(job.id);
    if (!opened) throw new NotFoundError();
    return streamed(opened, 'text/plain', headers);
  }
  if (job.traceLength === 0) throw new NotFoundError();
  return { statusCode: 200, headers, binary: { data: await readTraceChunks(job.id, job.traceLength), contentType: 'text/plain' } };
}
