/**
 * Registry metadata (issue 29): GET /.well-known/mcp/server.json from a real server is valid against the
 * official MCP registry's published server.json schema (vendored in docs/mcp-registry/, not written here),
 * names a streamable-http remote at `${baseUrl}/mcp` that answers initialize, and follows the
 * --mcp-registry-name setting; tools/list gives every tool a title and the read-only annotations.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { RunningServer } from '../../server/main.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { SERVER_INFO } from '../../server/mcp/server.ts';
import {
  REGISTRY_DESCRIPTION, REGISTRY_SCHEMA_URL, SERVER_JSON_PATH, defaultRegistryName, registryServerJson, type RegistryServerJson,
} from '../../server/mcp/registry.ts';
import { SETTINGS, settingProblem } from '../../build/cli/settings.ts';
import { get, request, type HttpResponse } from '../helpers/http.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { JSON_ONLY, TOOL_NAMES, connectClient, initializeBody, rawPost, serveGolden } from './mcp-helpers.ts';

const SCHEMA_FILE = join(process.cwd(), 'docs/mcp-registry/server.schema.json');
/** docs/mcp-registry/README.md: the published file's SHA-256 */
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';

const schemaText = readFileSync(SCHEMA_FILE);
const schema = JSON.parse(schemaText.toString('utf8')) as {
  $id: string; $schema: string;
  definitions: { ServerDetail: { properties: { description: { maxLength: number }; title: { maxLength: number }; name: { pattern: string } } } };
};

function compileOfficial(): ValidateFunction {
  // draft-07 (the schema's $schema). strictSchema: the one keyword it uses that JSON Schema does not define
  // is the OpenAPI annotation `example`, declared here as an annotation; any other unknown keyword fails the
  // compile. (The lints for valid but unusual schemas, such as `required` naming a property defined in a
  // sibling schema, stay off: the file is the registry's, as published.)
  const ajv = new Ajv({ strictSchema: true, strictRequired: false, strictTypes: false, strictTuples: false, allErrors: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addVocabulary(['example']);
  return ajv.compile(schema);
}
const validate = compileOfficial();
const problems = () => JSON.stringify(validate.errors, null, 1);

const work = useGoldenDir('mcp-registry');
const closeLater = closeAfterAll();
const clock = () => new Date('2026-12-01T12:00:15.000Z');
let server: RunningServer;
let named: RunningServer;
let baseUrl: string;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'registry', clock));
  named = closeLater(await serveGolden(work.path, work.dist, 'registry-named', clock, { mcpRegistryName: 'io.github.physpay-org/physpay' }));
  baseUrl = server.registry.current!.baseUrl;
}, 60_000);

function serverJsonOf(r: HttpResponse): RegistryServerJson {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  return r.json<RegistryServerJson>();
}

describe('the vendored schema', () => {
  it('is the published 2025-12-11 file, byte for byte, and the one our document names', () => {
    expect(createHash('sha256').update(schemaText).digest('hex')).toBe(SCHEMA_SHA256);
    expect(schema.$id).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(REGISTRY_SCHEMA_URL).toBe(schema.$id);
  });

  it('rejects what the registry rejects (the validator is not vacuous)', () => {
    const good = registryServerJson('https://physpay.example.com');
    expect(validate(good), problems()).toBe(true);
    expect(validate({ ...good, name: 'physpay' })).toBe(false); // no namespace
    expect(validate({ ...good, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...good, remotes: [{ type: 'streamable-http', url: 'physpay.example.com/mcp' }] })).toBe(false);
    expect(validate({ ...good, remotes: [{ type: 'websocket', url: 'https://physpay.example.com/mcp' }] })).toBe(false);
    const { version: _v, ...noVersion } = good;
    expect(validate(noVersion)).toBe(false);
  });
});

describe(`GET ${SERVER_JSON_PATH}`, () => {
  it('is valid against the official server.json schema, with the headers of the discovery document', async () => {
    const r = await get(server.url, SERVER_JSON_PATH);
    const doc = serverJsonOf(r);
    expect(validate(doc), problems()).toBe(true);
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(doc.$schema).toBe(schema.$id);
    expect(doc.description).toBe(REGISTRY_DESCRIPTION);
    expect(doc.description.length).toBeLessThanOrEqual(schema.definitions.ServerDetail.properties.description.maxLength);
    expect(doc.title.length).toBeLessThanOrEqual(schema.definitions.ServerDetail.properties.title.maxLength);
  });

  it('names one streamable-http remote at the configured base URL + /mcp, never the request Host', async () => {
    expect(baseUrl).toBe('https://physpay.example');
    const doc = serverJsonOf(await request(server.url, SERVER_JSON_PATH, { headers: { host: 'evil.example' } }));
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: `${baseUrl}/mcp` }]);
    expect(doc.websiteUrl).toBe(`${baseUrl}/methodology`);
    expect(JSON.stringify(doc)).not.toContain('evil.example');
    expect(JSON.stringify(doc)).not.toContain('127.0.0.1');
  });

  it('the remote answers initialize (the same path, under the Host it names), as the server the document describes', async () => {
    const doc = serverJsonOf(await get(server.url, SERVER_JSON_PATH));
    const remote = new URL(doc.remotes[0]!.url);
    const r = await rawPost(server.url, initializeBody(1), { ...JSON_ONLY, host: remote.host }, remote.pathname);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const init = r.json<{ result: { serverInfo: { name: string; title?: string; version: string }; capabilities: { tools?: object } } }>().result;
    expect(init.capabilities.tools).toBeTypeOf('object');
    // server.json's version is the MCP Implementation.version (the schema says so); the title is the same too
    expect(doc.version).toBe(init.serverInfo.version);
    expect(doc.title).toBe(init.serverInfo.title);
  });

  it('default name: the base URL host in reverse-DNS form, then /physpay', async () => {
    const doc = serverJsonOf(await get(server.url, SERVER_JSON_PATH));
    expect(doc.name).toBe('example.physpay/physpay');
    expect(doc.name).toMatch(new RegExp(schema.definitions.ServerDetail.properties.name.pattern));
  });

  it('--mcp-registry-name (PHYSPAY_MCP_REGISTRY_NAME) sets the name; the rest is unchanged', async () => {
    const doc = serverJsonOf(await get(named.url, SERVER_JSON_PATH));
    expect(validate(doc), problems()).toBe(true);
    expect(doc.name).toBe('io.github.physpay-org/physpay');
    expect({ ...doc, name: '' }).toEqual({ ...serverJsonOf(await get(server.url, SERVER_JSON_PATH)), name: '' });
  });

  it('the discovery document links it', async () => {
    const r = await get(server.url, '/.well-known/mcp.json');
    expect(r.status).toBe(200);
    expect(r.json<{ server_json: string }>().server_json).toBe(`${baseUrl}${SERVER_JSON_PATH}`);
  });

  it('answers 503 before any build is loaded (no document naming the client\'s Host)', async () => {
    const empty = join(work.path, 'empty-dist');
    mkdirSync(empty, { recursive: true });
    const { url } = closeLater(await serveApp(join(work.path, 'service-empty.db'), { registry: new BuildRegistry(empty), clock }));
    const r = await request(url, SERVER_JSON_PATH, { headers: { host: 'evil.example' } });
    expect(r.status).toBe(503);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['retry-after']).toBeDefined();
    expect(r.text).not.toContain('evil.example');
  });
});

describe('registryServerJson (pure)', () => {
  it.each([
    ['https://physpay.example.com', 'com.example.physpay/physpay', 'https://physpay.example.com/mcp'],
    ['https://data.physpay.org:8443/', 'org.physpay.data/physpay', 'https://data.physpay.org:8443/mcp'],
    ['http://localhost:8080', 'localhost/physpay', 'http://localhost:8080/mcp'],
    ['http://127.0.0.1:8080', '1.0.0.127/physpay', 'http://127.0.0.1:8080/mcp'],
    ['http://[::1]:8080', '--1/physpay', 'http://[::1]:8080/mcp'],
  ])('%s: name %s, remote %s, valid', (base, name, remote) => {
    const doc = registryServerJson(base);
    expect(defaultRegistryName(base)).toBe(name);
    expect(doc.name).toBe(name);
    expect(doc.remotes[0]!.url).toBe(remote);
    expect(validate(doc), problems()).toBe(true);
  });

  it('the host is lower-cased', () => {
    expect(defaultRegistryName('https://Data.PhysPay.ORG')).toBe('org.physpay.data/physpay');
  });

  it('takes the configured name, and refuses one that is not namespace/name', () => {
    expect(registryServerJson('https://physpay.example.com', 'com.example/physpay').name).toBe('com.example/physpay');
    expect(() => registryServerJson('https://physpay.example.com', 'physpay')).toThrow(/namespace\/name/);
  });

  it('its version and title are the server\'s own (serverInfo)', () => {
    const doc = registryServerJson('https://physpay.example.com');
    expect(doc.version).toBe(SERVER_INFO.version);
    expect(doc.title).toBe(SERVER_INFO.title);
  });

  it('the setting accepts what the schema\'s name pattern accepts (empty: the default)', () => {
    const setting = SETTINGS.mcpRegistryName.schema;
    for (const ok of ['', 'io.github.owner/physpay', 'com.example.physpay/physpay', 'io.github.a-b/physpay_2.0']) expect(setting.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['physpay', 'io.github.owner/', '/physpay', 'a/b/c', 'io github/physpay', `a/${'x'.repeat(200)}`]) expect(setting.safeParse(bad).success, bad).toBe(false);
    expect(settingProblem('mcpRegistryName', 'physpay')).toMatch(/^--mcp-registry-name \(PHYSPAY_MCP_REGISTRY_NAME\) must be namespace\/name/);
  });
});

describe('tools/list: titles and annotations', () => {
  it('every tool has a title, and is read-only, idempotent, non-destructive and closed-world', async () => {
    const client = await connectClient(server.url, 'registry-test');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(TOOL_NAMES));
      for (const t of tools) {
        expect(typeof t.title === 'string' && t.title.length > 0, `${t.name}: title`).toBe(true);
        expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false });
      }
    } finally {
      await client.close();
    }
  });
});
