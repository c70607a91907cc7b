/**
 * GET /.well-known/mcp/server.json: this server's `server.json` for the official MCP registry (format
 * 2025-12-11, vendored with its provenance in docs/mcp-registry/): a remote server reached over Streamable
 * HTTP at `${baseUrl}/mcp`, where baseUrl is the public base URL the current build was made for
 * (`--base-url`), never the request's Host header. An operator downloads it and publishes it with the
 * registry's publisher tool (README: Tool server, "Registry metadata").
 */
import { SERVER_INFO } from './server.ts';

/** The `$id` of docs/mcp-registry/server.schema.json, named as `$schema` (the test checks they agree). */
export const REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Where the document is served. */
export const SERVER_JSON_PATH = '/.well-known/mcp/server.json';

/** The schema's pattern for `name` (one slash between a reverse-DNS namespace and a name), and its bounds 3..200. */
export const REGISTRY_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** At most 100 characters (the schema's maxLength). */
export const REGISTRY_DESCRIPTION = 'Physician pay benchmarks by specialty and state, pay per wRVU and resident pay (self-reported).';

export interface RegistryServerJson {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl: string;
  remotes: { type: 'streamable-http'; url: string }[];
}

/**
 * The name used when the operator set none: the base URL's host in reverse-DNS order, then `/physpay`
 * (`https://physpay.example.com` -> `com.example.physpay/physpay`). That namespace is the one the registry
 * grants to whoever proves control of the domain (DNS or HTTP login of the publisher tool).
 */
export function defaultRegistryName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const namespace = host.split('.').filter(Boolean).reverse().join('.').replace(/[^a-z0-9.-]/g, '-');
  return `${namespace || 'localhost'}/physpay`;
}

/** The document for a build made for `baseUrl`, named `name` (default: defaultRegistryName). */
export function registryServerJson(baseUrl: string, name?: string): RegistryServerJson {
  const base = baseUrl.replace(/\/+$/, '');
  const chosen = name || defaultRegistryName(base);
  if (!REGISTRY_NAME_PATTERN.test(chosen) || chosen.length > 200) throw new Error(`MCP registry name ${JSON.stringify(chosen)} is not namespace/name`);
  return {
    $schema: REGISTRY_SCHEMA_URL,
    name: chosen,
    title: SERVER_INFO.title,
    description: REGISTRY_DESCRIPTION,
    // the registry's version is the MCP Implementation.version: what initialize reports as serverInfo.version
    version: SERVER_INFO.version,
    websiteUrl: `${base}/methodology`,
    remotes: [{ type: 'streamable-http', url: `${base}/mcp` }],
  };
}
