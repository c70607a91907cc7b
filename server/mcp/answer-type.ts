/**
 * How /mcp answers a request, from its Accept header. Streamable HTTP asks clients to list both
 * application/json and text/event-stream; this endpoint is lenient both ways: JSON when the client takes
 * JSON (or sends no Accept), one SSE event holding the same JSON-RPC answer when it takes only
 * text/event-stream, 406 when it takes neither (README: Tool server (MCP)).
 */
export type AnswerType = 'json' | 'sse';

/** The q-value the Accept header gives `type/subtype` (the most specific matching range wins). */
function qualityOf(ranges: { type: string; q: number }[], media: string): number {
  const [type] = media.split('/');
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const rank = r.type === media ? 2 : r.type === `${type}/*` ? 1 : r.type === '*/*' ? 0 : -1;
    if (rank > best) {
      best = rank;
      q = r.q;
    }
  }
  return q;
}

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const MEDIA_RANGE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** JSON, SSE or null (neither is acceptable: 406). */
export function answerType(accept: string | undefined): AnswerType | null {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='))?.slice(2);
    // a malformed q-value is ignored (the range counts at q=1), as is anything that is not a media range
    return { type, q: qParam !== undefined && Q_VALUE.test(qParam) ? Number(qParam) : 1 };
  }).filter((r) => MEDIA_RANGE.test(r.type));
  // no media range at all (an empty or garbled header): as if there were no Accept header
  if (ranges.length === 0) return 'json';
  const json = qualityOf(ranges, 'application/json');
  const sse = qualityOf(ranges, 'text/event-stream');
  if (json > 0 && json >= sse) return 'json';
  if (sse > 0) return 'sse';
  return null;
}

export const NOT_ACCEPTABLE = 'not acceptable: this endpoint answers application/json, or text/event-stream (one event holding the same answer); the Accept header allows neither';

/** A JSON-RPC answer as an SSE stream of one `message` event. */
export function asEventStream(json: string): string {
  return `event: message\n${json.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}
