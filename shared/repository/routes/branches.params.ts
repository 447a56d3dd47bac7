/** Parameters of the branches, protected branches and protected tags routes. */
import { p, required } from '../../platform/http/params';

/** `:branch` of `/branches/:branch` (URL-encoded when it holds a slash). */
export const branchParam = { branch: required(p.string()) };

export const branchListParams = {
  search: p.string(),
  regex: p.string(),
};

export const branchCreateParams = {
  branch: required(p.string()),
  ref: required(p.string()),
};

export const protectParams = {
  developers_can_push: p.bool(),
  developers_can_merge: p.bool(),
};

/** GitLab's protected ref access levels: no one, developers and maintainers, maintainers, instance admins. */
const ACCESS_LEVELS = [0, 30, 40, 60] as const;

/** `:name` of `/protected_branches/:name` and `/protected_tags/:name`: a ref name or a pattern. */
export const protectedNameParam = { name: required(p.string()) };

export const protectedBranchCreateParams = {
  // GitLab's `ProtectedRef` name: 255 characters.
  name: required(p.string({ max: 255 })),
  push_access_level: p.intOneOf(ACCESS_LEVELS),
  merge_access_level: p.intOneOf(ACCESS_LEVELS),
  allow_force_push: p.bool(),
};

export const protectedBranchUpdateParams = {
  allow_force_push: p.bool(),
};

export const protectedBranchListParams = {
  search: p.string(),
};

export const protectedTagCreateParams = {
  name: protectedBranchCreateParams.name,
  create_access_level: p.intOneOf(ACCESS_LEVELS),
};
