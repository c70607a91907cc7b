/** Every generated contract file, as (path relative to the repository, text). */
import { FEED_SCHEMAS, type FeedKind } from './open-feeds.ts';
import { feedJsonSchema, jsonSchema, keyedOpenApi, openDataOpenApi } from './openapi.ts';
import { LastBuild } from './last-build.ts';
import { intakeOpenApi } from './intake.ts';

export const pretty = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function generatedContracts(): [string, string][] {
  return [
    ['docs/openapi/keyed-api.json', pretty(keyedOpenApi())],
    ['docs/openapi/open-data-api.json', pretty(openDataOpenApi())],
    ['docs/openapi/contribute.json', pretty(intakeOpenApi())],
    ['docs/schemas/last-build.schema.json', pretty({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'physpay last-build.json: the outcome of the last physpay build', ...jsonSchema(LastBuild) })],
    ...(Object.keys(FEED_SCHEMAS) as FeedKind[]).map((k): [string, string] => [`docs/schemas/${k}.schema.json`, pretty(feedJsonSchema(k, ''))]),
  ];
}
