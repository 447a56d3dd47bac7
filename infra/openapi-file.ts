/**
 * `npm run openapi`: writes the published OpenAPI document, `openapi.json` at the repository root,
 * from the route catalog and the routes' zod schemas ({@link openApiDocument}). The file is
 * committed so that clients can read it without running anything; a unit test regenerates it and
 * fails when it is stale, so it is never edited by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allRoutes } from '../shared/catalog';
import { openApiDocument, type OpenApiDocument } from './openapi';
import { routeDefinitions } from './openapi-routes';

/** Where the published document lives. */
export const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The published document of the whole catalog, versioned like the package. */
export function publishedDocument(): OpenApiDocument {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return openApiDocument(allRoutes(), routeDefinitions, { version });
}

/** The file's exact text: two-space JSON and a final newline, so regenerating changes nothing. */
export function renderOpenApi(document: OpenApiDocument = publishedDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderOpenApi();
  writeFileSync(OPENAPI_FILE, text);
  const document = JSON.parse(text) as OpenApiDocument;
  const operations = Object.values(document.paths).reduce((count, item) => count + Object.keys(item).filter((key) => key !== 'parameters').length, 0);
  process.stdout.write(`wrote ${OPENAPI_FILE}: ${Object.keys(document.paths).length} paths, ${operations} operations, ${text.length} bytes\n`);
}
