/**
 * A request that breaks git's wire protocol: a malformed pkt-line, an unexpected line, a missing
 * flush. git's own servers die with such a message; ours answers it as an `ERR` packet or an HTTP
 * error.
 */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}
