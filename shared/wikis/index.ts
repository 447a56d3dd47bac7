/**
 * The wikis feature's public API: the only module other features and the composition roots
 * import. Its pages live in the project's wiki repository (the repository feature's storage), so
 * it keeps no items of its own. The delivery function takes the `Wiki Page Hook` payload builder.
 */
export { WIKI_FORMATS, type WikiFormat } from './pages';
export { wikiPageHookPayloads } from './webhooks';
