export { removeAllMembershipsOf } from './commands';
export { removeGroupBots, removeProjectBots } from './access-tokens';
