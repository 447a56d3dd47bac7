/** The repository feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  /** The repository API: commits, branches and their protection, files, trees, blobs, compare, tags and their protection. */
  repository: [
    'POST /projects/:id/housekeeping',
    'GET /projects/:id/repository/commits',
    'POST /projects/:id/repository/commits',
    'GET /projects/:id/repository/commits/:sha',
    'GET /projects/:id/repository/commits/:sha/diff',
    'GET /projects/:id/repository/commits/:sha/refs',
    'GET /projects/:id/repository/commits/:sha/sequence',
    'GET /projects/:id/repository/commits/:sha/signature',
    'POST /projects/:id/repository/commits/:sha/cherry_pick',
    'POST /projects/:id/repository/commits/:sha/revert',
    /** Comments and discussions on a commit (GitLab's `Note` with `noteable_type: Commit`). */
    'GET /projects/:id/repository/commits/:sha/comments',
    'POST /projects/:id/repository/commits/:sha/comments',
    'GET /projects/:id/repository/commits/:sha/discussions',
    'POST /projects/:id/repository/commits/:sha/discussions',
    'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id',
    'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes',
    'POST /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes',
    'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
    'PUT /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
    'DELETE /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
    'GET /projects/:id/repository/branches',
    'GET /projects/:id/repository/branches/:branch',
    'POST /projects/:id/repository/branches',
    'DELETE /projects/:id/repository/branches/:branch',
    /** `protect` and `unprotect`: one resource for both (API Gateway's 300 resources per API). */
    'PUT /projects/:id/repository/branches/:branch/:action',
    'DELETE /projects/:id/repository/merged_branches',
    'GET /projects/:id/protected_branches',
    'POST /projects/:id/protected_branches',
    'GET /projects/:id/protected_branches/:name',
    'PATCH /projects/:id/protected_branches/:name',
    'DELETE /projects/:id/protected_branches/:name',
    'GET /projects/:id/protected_tags',
    'POST /projects/:id/protected_tags',
    'GET /projects/:id/protected_tags/:name',
    'DELETE /projects/:id/protected_tags/:name',
    'GET /projects/:id/repository/files/:file_path',
    'GET /projects/:id/repository/files/:file_path/raw',
    'GET /projects/:id/repository/files/:file_path/blame',
    'POST /projects/:id/repository/files/:file_path',
    'PUT /projects/:id/repository/files/:file_path',
    'DELETE /projects/:id/repository/files/:file_path',
    'GET /projects/:id/repository/tree',
    'GET /projects/:id/repository/blobs/:sha',
    'GET /projects/:id/repository/blobs/:sha/raw',
    'GET /projects/:id/repository/compare',
    'GET /projects/:id/repository/merge_base',
    'GET /projects/:id/repository/contributors',
    /** `archive`, `archive.tar.gz`, `archive.zip`, ...: one resource for GitLab's `archive(.:format)`. */
    'GET /projects/:id/repository/:archive',
    'GET /projects/:id/repository/tags',
    'POST /projects/:id/repository/tags',
    'GET /projects/:id/repository/tags/:tag_name',
    'DELETE /projects/:id/repository/tags/:tag_name',
    /** The default branch's languages (GitLab's `lib/api/projects.rb`, served with the code it reads). */
    'GET /projects/:id/languages',
  ],
  /**
   * Outside the API: git's smart HTTP (`/<namespace>/<project>.git/info/refs`, `…/git-upload-pack`,
   * `…/git-receive-pack`). The web function serves them in front of its route table; every other
   * POST at the root is the gateway's 404.
   */
  web: [
    'POST /:path+',
  ],
} as const;
