/** Storing a project upload (`POST /projects/:id/uploads`): the file-name rules of `upload-rules.ts`, the bytes kept by `store/uploads.ts`. */
import { randomBytes } from 'node:crypto';
import type { User } from '../../users';
import { config } from '../../platform/config';
import type { UploadedFile } from '../../platform/http/context';
import { NotFoundError, PayloadTooLargeError } from '../../platform/http/errors';
import { contentTypeFor, sanitizeFilename } from '../upload-rules';
import type { Project } from '../store/projects';
import { putUpload, type ProjectUpload } from '../store/uploads';

/**
 * Stores a file for a project: 413 above `config().maxUploadBytes` (4 MiB by default: the
 * request reaches Lambda base64-encoded, 4/3 larger, within Lambda's 6 MB payload limit, and so
 * does the download's response), nothing stored; 404 when the project is being deleted.
 *
 * @example
 * const upload = await storeUpload(project, user, params.file);
 * uploadUrl(upload); // '/uploads/<secret>/screen.png'
 */
export async function storeUpload(project: Project, uploader: User, file: UploadedFile): Promise<ProjectUpload> {
  if (file.data.length > config().maxUploadBytes) throw new PayloadTooLargeError();
  const filename = sanitizeFilename(file.filename);
  const upload: ProjectUpload = {
    projectId: project.id,
    secret: randomBytes(16).toString('hex'),
    filename,
    contentType: contentTypeFor(filename, file.contentType),
    size: file.data.length,
    uploadedBy: uploader.id,
    createdAt: new Date().toISOString(),
  };
  if ((await putUpload(upload, file.data)) === 'project_gone') throw new NotFoundError('Project');
  return upload;
}
