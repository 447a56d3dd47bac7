import { createHash } from 'node:crypto';

/** The four kinds of git object. */
export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** A git object: its type and its body (without the "<type> <size>\0" header). */
export interface GitObject {
  type: ObjectType;
  body: Buffer;
}

/** The header git hashes (and stores loose objects with) before an object's body: `<type> <size>\0`. */
export function objectHeader(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`, 'latin1');
}

/** The SHA-1 object id of an object, as 40 lower-case hex digits. */
export function hashObject(type: ObjectType, body: Buffer): string {
  return createHash('sha1').update(objectHeader(type, body.length)).update(body).digest('hex');
}
