/** The todos group: the caller's todo list and marking todos done. */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { todoRoutes } from '../../shared/issues/routes/todos';

export const handler = createGroupHandler('todos', todoRoutes);
