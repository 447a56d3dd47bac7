/**
 * The projects feature's S3 object keys: every key layout of its objects in the bucket is built
 * here, and only here (as `keys.ts` does for its items). Everything of a project lives under the
 * project's prefix, so deleting the prefix deletes all of it. The layouts are listed in
 * ACCESS_PATTERNS.md beside this folder.
 */

/** Everything a project stores in the bucket: `projects/<projectId>/` (the slash keeps `projects/7/` apart from `projects/70/`). */
const projectPrefix = (projectId: number): string => `projects/${projectId}/`;

export const projectObjects = {
  projectPrefix,
  /** An upload's bytes: `projects/<projectId>/uploads/<secret>/<filename>` (the sanitized file name). */
  upload: (projectId: number, secret: string, filename: string): string => `${projectPrefix(projectId)}uploads/${secret}/${filename}`,
} as const;
