export { removeAllMembershipsOf } from './commands';
export { removeProjectBots } from './access-tokens';
