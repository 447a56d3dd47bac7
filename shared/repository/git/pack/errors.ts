/** A pack, pack index or delta that is malformed, truncated, or refers to an object that cannot be found. */
export class PackError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PackError';
  }
}
