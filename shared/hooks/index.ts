export { prepareHookEvent } from './store/hook-events';
