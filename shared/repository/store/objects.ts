/**
 * The repository feature's S3 object keys. A pack and its index are immutable and named by the
 * pack's own checksum, so a key never changes meaning and every cache of them is always valid.
 */
const poolPrefix = (pool: string): string => `pools/${pool}/`;

export const repositoryObjects = {
  poolPrefix,
  pack: (pool: string, name: string): string => `${poolPrefix(pool)}pack-${name}.pack`,
  packIndex: (pool: string, name: string): string => `${poolPrefix(pool)}pack-${name}.idx`,
} as const;
