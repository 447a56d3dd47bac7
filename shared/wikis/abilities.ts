/**
 * The wikis feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's project policy
 * names them: the wiki follows its feature's access level (`wiki_access_level`), reading it as the
 * project is read; cloning needs reporter access unless the project is public; developers write
 * pages and push, maintainers delete pages; nothing is written to an archived project's wiki.
 */
import { DEVELOPER, featureOpen, MAINTAINER, REPORTER, type Abilities, type ProjectRule } from '../auth/rules';

const readWiki: ProjectRule = (user, s) => featureOpen(user, s, 'wiki');

export const abilities = {
  project: {
    /** The Wikis API's reads. */
    read_wiki: readWiki,
    /** Clone and fetch the wiki repository (GitLab gives it to anyone reading a public project, else to reporters and up). */
    download_wiki_code: (user, s) => readWiki(user, s) && (s.project.visibility === 'public' || s.access.level >= REPORTER),
    /** Create and edit pages, upload attachments, push to the wiki repository. */
    create_wiki: (user, s) => readWiki(user, s) && !s.project.archived && s.access.level >= DEVELOPER,
    /** Delete pages. */
    admin_wiki: (user, s) => readWiki(user, s) && !s.project.archived && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
