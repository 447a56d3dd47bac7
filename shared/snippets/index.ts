/**
 * The snippets feature's public API: the only module other features import. Nothing builds on
 * snippets yet; the removal step of a deleted project is wired by the composition root
 * (`functions/api.ts`) from `commands/snippets.ts`, and the meta function serves the personal
 * snippets' routes from `routes/personal.ts`.
 */
export type { Snippet } from './store/snippets';
// The Search API's `snippet_titles` scope (the search feature, loaded on first use).
export { snippetAuthors, snippetList } from './queries/snippets';
export { presentSnippet } from './presenters/snippets';
