/**
 * The Groups API (groups, their projects, namespaces listing) builds on namespaces, projects and
 * memberships; no feature builds on it, so it exports nothing. The group records themselves, their
 * paths and finders are the namespaces feature's (`shared/namespaces`).
 */
export {};
