/** Reading a project upload back (the web route `GET /:namespace/:project/uploads/:secret/:filename`). */
import { isUploadSecret } from '../upload-rules';
import { getUpload, readUploadObject, type ProjectUpload } from '../store/uploads';

/**
 * The upload of a project with this secret and exactly this file name, with its bytes;
 * `undefined` when there is none (or its bytes are gone: the project is being deleted).
 */
export async function uploadedFile(projectId: number, secret: string, filename: string): Promise<{ upload: ProjectUpload; data: Buffer } | undefined> {
  const upload = await findUpload(projectId, secret, filename);
  const data = upload && (await readUploadObject(upload));
  return upload && data ? { upload, data } : undefined;
}

/** The upload of a project with this secret and exactly this file name, if there is one. */
export async function findUpload(projectId: number, secret: string, filename: string): Promise<ProjectUpload | undefined> {
  if (!isUploadSecret(secret)) return undefined;
  const upload = await getUpload(projectId, secret);
  return upload?.filename === filename ? upload : undefined;
}
