/** The todos group: the caller's todo list and marking todos done. */
import { createGroupHandler } from '../../shared/http/group-handler';
import { todoRoutes } from './routes';

export const handler = createGroupHandler('todos', todoRoutes);
