/**
 * Notification settings (GitLab's `lib/api/notification_settings.rb`): the caller's global level
 * and notification email (`/notification_settings`), and its level for a group or a project it
 * may read (`/groups/:id/notification_settings`, `/projects/:id/notification_settings`; 404
 * otherwise). Every route needs a token. With the `custom` level, the events are set one by one.
 * Nothing here sends email: the settings are stored and answered, as clients read and write them.
 */
import { findGroupOrNotFound } from '../../namespaces';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import { ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { checkLevel, updateSetting } from '../commands';
import { presentGlobalSetting, presentSetting } from '../presenters/settings';
import { globalSettingOf, settingOf } from '../queries';
import type { SettingSource } from '../store/keys';
import { eventChanges, sourceParams, updateGlobalParams, updateSourceParams } from './notification-settings.params';

/** Internal: the group or project of `:id` the caller may read (404 otherwise), as a setting's source. */
async function findSource(kind: 'group' | 'project', idOrPath: string, user: User): Promise<SettingSource> {
  const id = kind === 'group' ? (await findGroupOrNotFound(idOrPath, user)).group.id : (await findProjectOrNotFound(idOrPath, user)).project.id;
  return { kind, id };
}

/** The routes of one kind of source: `/groups/:id/notification_settings` or `/projects/:id/notification_settings`. */
function sourceRoutes(kind: 'group' | 'project') {
  return {
    show: route({
      params: sourceParams,
      handler: async ({ params, user }) => ok(presentSetting(await settingOf(user, await findSource(kind, params.id, user)))),
    }),
    update: route({
      params: updateSourceParams,
      handler: async ({ params, user }) => {
        const source = await findSource(kind, params.id, user);
        const setting = await updateSetting(user, source, { level: checkLevel(params.level), events: eventChanges(params) });
        return ok(presentSetting(setting));
      },
    }),
  };
}

const groupRoutes = sourceRoutes('group');
const projectRoutes = sourceRoutes('project');

export const notificationSettingRoutes = {
  meta: {
    'GET /notification_settings': route({
      params: noParams,
      handler: async ({ user }) => ok(presentGlobalSetting(await globalSettingOf(user), user.email)),
    }),
    'PUT /notification_settings': route({
      params: updateGlobalParams,
      handler: async ({ params, user }) => {
        const setting = await updateSetting(user, { kind: 'global' }, { level: checkLevel(params.level), notificationEmail: params.notification_email, events: eventChanges(params) });
        return ok(presentGlobalSetting(setting, user.email));
      },
    }),
  } satisfies RoutesOf<typeof catalog.meta>,
  groups: {
    'GET /groups/:id/notification_settings': groupRoutes.show,
    'PUT /groups/:id/notification_settings': groupRoutes.update,
  } satisfies RoutesOf<typeof catalog.groups>,
  projects: {
    'GET /projects/:id/notification_settings': projectRoutes.show,
    'PUT /projects/:id/notification_settings': projectRoutes.update,
  } satisfies RoutesOf<typeof catalog.projects>,
};
