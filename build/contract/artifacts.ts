/**
 * Which schema governs which file of a build. Used by the build before publishing, by `physpay builds
 * verify` and by the server when it loads a build.
 */
import type { z } from 'zod';
import { FEED_SCHEMAS, type FeedKind } from './open-feeds.ts';
import { KeyedIndex, KeyedReportsArtifact, KeyedSpecialtyArtifact } from './keyed-artifacts.ts';
import { ReleasesFeed } from './releases.ts';
import { DefinitionsDocument } from './definitions.ts';

const SLUG = '[a-z0-9]+(?:-[a-z0-9]+)*';
const RULES: { pattern: RegExp; schema: z.ZodType; feed?: FeedKind }[] = [
  { pattern: /^public\/data\/api\/v1\/specialties\.json$/, schema: FEED_SCHEMAS.specialties, feed: 'specialties' },
  { pattern: new RegExp(`^public/data/api/v1/specialties/${SLUG}\\.json$`), schema: FEED_SCHEMAS.specialty, feed: 'specialty' },
  { pattern: new RegExp(`^public/data/api/v1/specialties/${SLUG}/states/${SLUG}\\.json$`), schema: FEED_SCHEMAS.specialtyState, feed: 'specialtyState' },
  { pattern: /^public\/data\/api\/v1\/states\.json$/, schema: FEED_SCHEMAS.states, feed: 'states' },
  { pattern: new RegExp(`^public/data/api/v1/states/${SLUG}\\.json$`), schema: FEED_SCHEMAS.state, feed: 'state' },
  { pattern: new RegExp(`^public/data/api/v1/wrvu/${SLUG}\\.json$`), schema: FEED_SCHEMAS.wrvu, feed: 'wrvu' },
  { pattern: /^public\/data\/api\/v1\/residency\/institutions\.json$/, schema: FEED_SCHEMAS.institutions, feed: 'institutions' },
  { pattern: new RegExp(`^public/data/api/v1/residency/institutions/${SLUG}\\.json$`), schema: FEED_SCHEMAS.institution, feed: 'institution' },
  { pattern: new RegExp(`^public/data/api/v1/residency/states/${SLUG}\\.json$`), schema: FEED_SCHEMAS.stateInstitutions, feed: 'stateInstitutions' },
  { pattern: /^public\/data\/api\/v1\/residency\/pgy\/(?:[2-9]|10)\.json$/, schema: FEED_SCHEMAS.residencyLevel, feed: 'residencyLevel' },
  { pattern: /^public\/data\/api\/v1\/releases\.json$/, schema: ReleasesFeed },
  { pattern: /^public\/data\/api\/v1\/definitions\.json$/, schema: DefinitionsDocument },
  { pattern: /^private\/keyed\/index\.json$/, schema: KeyedIndex },
  { pattern: new RegExp(`^private/keyed/benchmarks/${SLUG}\\.json$`), schema: KeyedSpecialtyArtifact },
  { pattern: new RegExp(`^private/keyed/reports/${SLUG}\\.json$`), schema: KeyedReportsArtifact },
];

/** The zod schema of a JSON artifact at `path` (relative to the build folder), or undefined for other files. */
export function schemaForPath(path: string): { schema: z.ZodType; feed?: FeedKind } | undefined {
  return RULES.find((r) => r.pattern.test(path));
}

export function contentTypeFor(path: string): string {
  if (path.endsWith('.json')) return 'application/json; charset=utf-8';
  if (path.endsWith('.html')) return 'text/html; charset=utf-8';
  if (path.endsWith('.csv')) return 'text/csv; charset=utf-8';
  if (path.endsWith('.svg')) return 'image/svg+xml';
  if (path.endsWith('.css')) return 'text/css; charset=utf-8';
  if (path.endsWith('.txt')) return 'text/plain; charset=utf-8';
  if (path.endsWith('.xml')) return 'application/xml; charset=utf-8';
  if (path.endsWith('.ico')) return 'image/x-icon';
  if (path.endsWith('.tar.gz')) return 'application/gzip';
  if (path.endsWith('.sha256')) return 'text/plain; charset=utf-8';
  if (path.endsWith('.cff')) return 'text/plain; charset=utf-8'; // CITATION.cff (YAML), readable in a browser
  return 'application/octet-stream';
}
