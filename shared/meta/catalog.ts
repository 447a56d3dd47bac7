/** The meta feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  meta: [
    'GET /version',
    'GET /metadata',
    'GET /openapi.json',
  ],
} as const;
