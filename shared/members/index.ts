export { removeAllMembershipsOf } from './commands';
