/**
 * The open data API's own contract, served from code whether or not a build is loaded: the OpenAPI document
 * at /data/api/v1/openapi.json and each feed's JSON Schema at its `$id` (/data/api/v1/schemas/<kind>.schema.json),
 * the same text as the committed copies in docs/. The server answers them (open-data/handler.ts) and
 * `physpay export` writes them beside the build's files.
 */
import { createHash } from 'node:crypto';
import { feedJsonSchema, openDataOpenApi } from '../../build/contract/openapi.ts';
import { FEED_SCHEMAS, type FeedKind } from '../../build/contract/open-feeds.ts';

export const CONTRACT_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ContractDocument {
  body: Buffer;
  /** strong ETag of the body (it does not change with the day: the documents carry no access date) */
  etag: string;
}

/** URL path -> document, in a fixed order (the OpenAPI document first, then the schemas by feed kind). */
export function contractDocuments(): Map<string, ContractDocument> {
  const docs = new Map<string, ContractDocument>();
  const add = (path: string, doc: unknown) => {
    const body = Buffer.from(`${JSON.stringify(doc, null, 2)}\n`);
    docs.set(path, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  };
  add('/data/api/v1/openapi.json', openDataOpenApi());
  for (const kind of Object.keys(FEED_SCHEMAS) as FeedKind[]) add(`/data/api/v1/schemas/${kind}.schema.json`, feedJsonSchema(kind, ''));
  return docs;
}
