export { removeAllMembershipsOf } from './members';
