/**
 * The three OpenAPI documents (keyed API, open data API, report intake), as the generator makes them now (not only the committed copies), pass Redocly's
 * `recommended` ruleset with no problem of any severity; a failure lists every problem. The committed
 * copies are the same text (test/contract/drift.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { keyedOpenApi, openDataOpenApi } from '../../build/contract/openapi.ts';
import { intakeOpenApi } from '../../build/contract/intake.ts';
import { describeProblems, lintOpenApi, type LintResult } from '../helpers/redocly-lint.ts';

describe('Redocly lint (recommended rules) of the generated OpenAPI documents', () => {
  let results: Record<string, LintResult>;
  beforeAll(async () => {
    results = await lintOpenApi({ 'keyed-api': keyedOpenApi(), 'open-data-api': openDataOpenApi(), contribute: intakeOpenApi() });
  }, 120_000);

  it.each(['keyed-api', 'open-data-api', 'contribute'])('%s has no errors and no warnings', (name) => {
    const r = results[name]!;
    expect(r.problems.length, `redocly lint ${name}:\n${describeProblems(r)}`).toBe(0);
    expect(r.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(r.version).toMatch(/^2\./);
  });

  it('the linter reports what it finds (a document without security and licence fails)', async () => {
    const doc = openDataOpenApi();
    delete doc.security;
    delete (doc.info as Record<string, unknown>).license;
    const r = (await lintOpenApi({ broken: doc })).broken!;
    const rules = new Set(r.problems.map((p) => p.ruleId));
    expect(rules).toEqual(new Set(['security-defined', 'info-license']));
    expect(r.totals.errors).toBe(Object.keys(doc.paths as object).length); // one per operation
  }, 120_000);
});
