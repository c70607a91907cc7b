/**
 * Every operation of both OpenAPI documents carries one curl line (x-codeSamples) built from the document:
 * the server prefix and path with its example parameters filled in, and the X-API-Key header exactly where
 * the operation's security asks for a key.
 */
import { describe, expect, it } from 'vitest';
import { keyedOpenApi, openDataOpenApi } from '../../build/contract/openapi.ts';
import { API_KEY_PLACEHOLDER, SAMPLE_ORIGIN, curlLine } from '../../build/contract/code-samples.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DOCS: [string, Json, string][] = [
  ['keyed', keyedOpenApi(), '/api/v1'],
  ['open data', openDataOpenApi(), '/data/api/v1'],
];
const CURL = /^curl(?: -X [A-Z]+)?(?: -H "[\w-]+: [^"]+")* "([^"\s]+)"$/;

describe.each(DOCS)('%s document', (name, doc, prefix) => {
  const ops = Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => [`${method.toUpperCase()} ${path}`, path, op as Json] as const));

  it.each(ops)('%s has one curl line for its path', (_label, path, op) => {
    expect(op['x-codeSamples']).toHaveLength(1);
    const { lang, label, source } = op['x-codeSamples'][0];
    expect({ lang, label }).toEqual({ lang: 'Shell', label: 'curl' });
    const m = CURL.exec(source);
    expect(m, source).not.toBeNull();
    const url = new URL(m![1]!);
    expect(url.origin).toBe(SAMPLE_ORIGIN);
    // a path parameter is one segment of slug characters (a release id also has dots: 2026-11-16, 2026-11-16.2)
    const template = new RegExp(`^${`${prefix}${path}`.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[a-z0-9.-]+')}$`);
    expect(url.pathname).toMatch(template);
    for (const p of (op.parameters ?? []) as Json[]) if (p.in === 'query' && p.required) expect(url.searchParams.get(p.name), `${p.name} in ${source}`).not.toBeNull();
    if (name === 'keyed') expect(source).toContain(`-H "X-API-Key: ${API_KEY_PLACEHOLDER}"`);
    else expect(source).not.toContain('-H');
  });
});

describe('curlLine', () => {
  const doc = { servers: [{ url: '/v' }], security: [{ K: [] }], components: { securitySchemes: { K: { type: 'apiKey', in: 'header', name: 'X-Key' }, Q: { type: 'apiKey', in: 'query', name: 'k' } } } };
  it('fills path and query examples (enum first when no example), adds the key header, and honours an operation\'s own security', () => {
    const op = {
      parameters: [
        { name: 'slug', in: 'path', required: true, example: 'a b' },
        { name: 'kind', in: 'query', required: true, schema: { enum: ['x', 'y'] } },
        { name: 'n', in: 'query', example: 3 },
        { name: 'skip', in: 'query' },
      ],
    };
    expect(curlLine(doc, '/s/{slug}', 'get', op)).toBe(`curl -H "X-Key: ${API_KEY_PLACEHOLDER}" "${SAMPLE_ORIGIN}/v/s/a%20b?kind=x&n=3"`);
    expect(curlLine(doc, '/open', 'get', { security: [] })).toBe(`curl "${SAMPLE_ORIGIN}/v/open"`);
    expect(curlLine(doc, '/q', 'head', { security: [{ Q: [] }] })).toBe(`curl -I "${SAMPLE_ORIGIN}/v/q"`);
  });
});
