/**
 * Secrets never echoed (pure): an API key a caller put where a name belongs (`specialty=pcb_live_...`), and
 * a password in a PostgreSQL URL (`postgres://user:secret@host/db`, `?password=secret`). Every error
 * message built from what a caller or operator typed goes through `redactSecrets`.
 */

/** An API key's shape (build/contract: `pcb_live_` + 32 base62 characters), also when cut short or padded. */
const API_KEY = /pcb_(live|test)_[A-Za-z0-9]+/g;
const URL_PASSWORD = /(postgres(?:ql)?:\/\/[^:/?#@\s]*):[^@/?#\s]*@/gi;
const QUERY_PASSWORD = /([?&](?:password|pass|pwd)=)[^&#\s]*/gi;

export function redactSecrets(text: string): string {
  return text.replace(API_KEY, 'pcb_$1_[redacted]').replace(URL_PASSWORD, '$1:[redacted]@').replace(QUERY_PASSWORD, '$1[redacted]');
}
