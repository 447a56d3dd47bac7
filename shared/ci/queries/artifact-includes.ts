/**
 * `include: artifact:` of a child pipeline (a trigger job's `trigger:include`): a file of the
 * artifacts archive of a job of the parent pipeline, as GitLab's `ArtifactFileReader` reads it.
 * The job is the parent's latest (not retried) of that name with an unexpired zip archive; the
 * archive and the file may be at most {@link MAX_ARCHIVE_BYTES} (GitLab's
 * `max_artifacts_content_include_size` default), and only the file's bytes are read (ranged reads
 * of the archive in S3, `zip-reader.ts`).
 */
import type { ArtifactFile } from '../config/includes';
import { artifactsExpired } from '../config/scheduler';
import { artifactsSource } from '../store/blobs';
import { readPipeline } from '../store/pipelines';
import { findEntry, openEntry, UnsupportedZipError, ZipFormatError } from '../zip-reader';

/** GitLab's default `max_artifacts_content_include_size` (5 MB), for the archive and the file. */
export const MAX_ARCHIVE_BYTES = 5 * 1024 * 1024;

/** The reader of the parent pipeline's artifacts a child pipeline's configuration includes. */
export function parentArtifactReader(parentPipelineId: number): (jobName: string, path: string) => Promise<ArtifactFile> {
  let parent: ReturnType<typeof readPipeline> | undefined;
  return async (jobName, path) => {
    const read = await (parent ??= readPipeline(parentPipelineId));
    const now = new Date();
    const job = read?.jobs
      .filter((candidate) => candidate.name === jobName && !candidate.retried && candidate.artifacts?.format === 'zip' && !artifactsExpired(candidate.artifacts, now))
      .sort((a, b) => b.id - a.id)[0];
    if (!job?.artifacts) return { result: 'no_job' };
    const tooLarge = { result: 'unreadable', message: `Artifacts archive for job \`${job.name}\` is too large: max 5 MB` } as const;
    if (job.artifacts.size > MAX_ARCHIVE_BYTES) return tooLarge;
    const missing = { result: 'unreadable', message: `Path \`${path}\` does not exist inside the \`${job.name}\` artifacts archive!` } as const;
    const source = artifactsSource(job.id);
    try {
      const entry = await findEntry(source, path);
      if (!entry) return missing;
      if (entry.uncompressedSize > MAX_ARCHIVE_BYTES) return tooLarge;
      const chunks: Buffer[] = [];
      for await (const chunk of await openEntry(source, entry)) chunks.push(Buffer.from(chunk));
      return { result: 'found', text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      // An archive that is gone or no zip GitLab could read: it has no such file.
      if (error instanceof ZipFormatError || error instanceof UnsupportedZipError) return missing;
      throw error;
    }
  };
}
