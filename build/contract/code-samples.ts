/**
 * `x-codeSamples` of every operation of an OpenAPI document: one copyable curl line per operation, built
 * from the document itself (server prefix, path, the example or first enum value of each path parameter,
 * required query parameters and those with an example, and the X-API-Key header wherever the operation's
 * security asks for an API key). A new endpoint gets its line without code here; give its parameters an
 * `example` to fill them in. The reference pages (server/api-reference/) show these lines.
 */

/** Origin of the curl lines in the documents: where `npm start` serves (the default --base-url). The
 * reference page shows its own origin in their place. */
export const SAMPLE_ORIGIN = 'http://localhost:8080';
/** What a curl line sends as the key (a real key is `pcb_live_` and more characters). */
export const API_KEY_PLACEHOLDER = 'pcb_live_...';

type Json = Record<string, unknown>;
interface Param { name: string; in: string; required?: boolean; example?: unknown; schema?: { enum?: unknown[]; example?: unknown } }
interface ApiKeyScheme { type: string; in?: string; name?: string }

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;

function exampleOf(p: Param): string | undefined {
  const v = p.example ?? p.schema?.example ?? p.schema?.enum?.[0];
  return v === undefined ? undefined : String(v);
}

/** Header names of the API keys an operation needs (its own `security`, else the document's). */
function apiKeyHeaders(doc: Json, op: Json): string[] {
  const security = (op.security ?? doc.security ?? []) as Record<string, unknown>[];
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, ApiKeyScheme>;
  const names = security.flatMap((req) => Object.keys(req)).map((k) => schemes[k]);
  return [...new Set(names.filter((s) => s?.type === 'apiKey' && s.in === 'header').map((s) => s!.name!))];
}

/** The curl line of one operation, e.g. `curl -H "X-API-Key: pcb_live_..." "http://localhost:8080/api/v1/benchmarks?specialty=Cardiology"`. */
export function curlLine(doc: Json, path: string, method: string, op: Json): string {
  const server = ((doc.servers ?? []) as { url: string }[])[0]?.url ?? '';
  const params = (op.parameters ?? []) as Param[];
  let target = path;
  for (const p of params.filter((x) => x.in === 'path')) {
    const v = exampleOf(p);
    if (v !== undefined) target = target.replace(`{${p.name}}`, encodeURIComponent(v));
  }
  const query = params
    .filter((p) => p.in === 'query' && (p.required || p.example !== undefined))
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(exampleOf(p) ?? '...').replace(/%20/g, '+')}`);
  const parts = ['curl'];
  if (method !== 'get') parts.push(method === 'head' ? '-I' : `-X ${method.toUpperCase()}`);
  for (const h of apiKeyHeaders(doc, op)) parts.push(`-H "${h}: ${API_KEY_PLACEHOLDER}"`);
  parts.push(`"${SAMPLE_ORIGIN}${server}${target}${query.length ? `?${query.join('&')}` : ''}"`);
  return parts.join(' ');
}

/** The document with `x-codeSamples` (one curl line) on every operation. */
export function withCurlSamples<T extends Json>(doc: T): T {
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op) op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: curlLine(doc, path, method, op) }];
    }
  }
  return doc;
}
