/**
 * GitLab's `ProjectUpload` entity (the "Upload result" of the specification). `full_path` is the
 * web path of the file, like GitLab's `show_project_uploads_path`: it starts with the path of
 * `EXTERNAL_URL` (a deployed stage's `/prod`), as Rails path helpers include the relative URL root.
 */
import { config } from '../../platform/config';
import { markdownLink, markdownName, uploadUrl } from '../upload-rules';
import type { ProjectUpload } from '../store/uploads';

/** `projectFullPath` is the project's `path_with_namespace`. Cheap: no reads. */
export function presentUpload(upload: ProjectUpload, projectFullPath: string) {
  const url = uploadUrl(upload);
  const root = new URL(config().externalUrl).pathname.replace(/\/+$/, '');
  return {
    alt: markdownName(upload.filename),
    url,
    full_path: `${root}/${projectFullPath}${url}`,
    markdown: markdownLink(upload.filename, url),
  };
}
