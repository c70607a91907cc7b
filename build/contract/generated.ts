/** Every generated contract file, as (path relative to the repository, text). */
import { FEED_SCHEMAS, type FeedKind } from './open-feeds.ts';
import { feedJsonSchema, keyedOpenApi, openDataOpenApi } from './openapi.ts';
import { intakeOpenApi } from './intake.ts';

export const pretty = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function generatedContracts(): [string, string][] {
  return [
    ['docs/openapi/keyed-api.json', pretty(keyedOpenApi())],
    ['docs/openapi/open-data-api.json', pretty(openDataOpenApi())],
    ['docs/openapi/contribute.json', pretty(intakeOpenApi())],
    ...(Object.keys(FEED_SCHEMAS) as FeedKind[]).map((k): [string, string] => [`docs/schemas/${k}.schema.json`, pretty(feedJsonSchema(k, ''))]),
  ];
}
