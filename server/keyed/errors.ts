/**
 * The keyed API's errors: one class, one body shape `{"error": "..."}`, and one table from kind to status.
 * Handlers throw; `fail` in handler.ts is the only place that turns errors into responses.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  quota_exceeded: 429,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

export class KeyedError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }
}

export const badRequest = (m: string) => new KeyedError('bad_request', m);
export const notFound = (m: string) => new KeyedError('not_found', m);
export const forbidden = (m: string) => new KeyedError('forbidden', m);
