/**
 * A project's wiki pages (GitLab's `lib/api/wikis.rb`): list (`with_content`), read (`version`,
 * `render_html`), create, edit, delete, and attachments. The project must be readable by the
 * caller (404 otherwise); reading needs `read_wiki` (the wiki's access level), writing
 * `create_wiki` (developers), deleting `admin_wiki` (maintainers). Pages are files of the wiki's
 * own git repository (`<namespace>/<project>.wiki.git`), read and written through the repository
 * feature, whose code loads on first use. A write answers the page from what it wrote (its path
 * and content), without reading the wiki again.
 */
import { authorize } from '../../auth';
import { findProjectOrNotFound } from '../../projects';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createAttachment, createPage, deletePage, updatePage } from '../commands';
import { findPageOrNotFound, listPages } from '../queries';
import { presentWikiAttachment, presentWikiPage, presentWikiPageBasic } from '../presenters/wiki-pages';
import { attachmentParams, createParams, deleteParams, listParams, requireAnEdit, showParams, updateParams } from './wikis.params';

export const wikiRoutes = {
  'GET /projects/:id/wikis': route({
    params: listParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'read_wiki', subject);
      const pages = await listPages(subject.project, params.with_content ?? false);
      return ok(pages.map((page) => ('content' in page ? presentWikiPage(page) : presentWikiPageBasic(page))));
    },
  }),

  'GET /projects/:id/wikis/:slug': route({
    params: showParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'read_wiki', subject);
      return ok(presentWikiPage(await findPageOrNotFound(subject.project, params.slug, params.version), { renderHtml: params.render_html }));
    },
  }),

  'POST /projects/:id/wikis': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_wiki', subject);
      return created(presentWikiPage(await createPage(subject.project, user, { title: params.title, content: params.content, format: params.format ?? 'markdown' })));
    },
  }),

  'PUT /projects/:id/wikis/:slug': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      requireAnEdit(params);
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_wiki', subject);
      return ok(presentWikiPage(await updatePage(subject.project, user, params.slug, { title: params.title, content: params.content, format: params.format })));
    },
  }),

  'DELETE /projects/:id/wikis/:slug': route({
    params: deleteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_wiki', subject);
      await deletePage(subject.project, user, params.slug);
      return noContent();
    },
  }),

  'POST /projects/:id/wikis/attachments': route({
    params: attachmentParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_wiki', subject);
      return created(presentWikiAttachment(await createAttachment(subject.project, user, params.file)));
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
