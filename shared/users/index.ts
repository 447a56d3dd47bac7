export { authenticate, trackActivity } from './authenticate';
