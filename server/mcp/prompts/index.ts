/**
 * The prompts (prompts/list, prompts/get) and the completions of their specialty, state and teaching
 * hospital arguments (completion/complete), from the build the request reads. Each prompt's text is a pure
 * function of its arguments and the build (evaluate-job-offer.ts, compare-specialties.ts, resident-pay.ts);
 * an argument it cannot use is a JSON-RPC invalid-params error (-32602) saying why, with close matches.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import type { ToolDeps } from '../tool-result.ts';
import { promptResult } from './common.ts';
import { COMPARE_SPECIALTIES, compareSpecialtiesArgs, compareSpecialtiesMeta, compareSpecialtiesPrompt } from './compare-specialties.ts';
import { EVALUATE_JOB_OFFER, evaluateJobOfferArgs, evaluateJobOfferMeta, evaluateJobOfferPrompt } from './evaluate-job-offer.ts';
import { RESIDENT_PAY, residentPayArgs, residentPayMeta, residentPayPrompt } from './resident-pay.ts';

/** The prompts, in the order prompts/list gives them. */
export const PROMPT_NAMES = [EVALUATE_JOB_OFFER, COMPARE_SPECIALTIES, RESIDENT_PAY] as const;

function argSchemas(build: LoadedBuild | null) {
  return { evaluate: evaluateJobOfferArgs(build), compare: compareSpecialtiesArgs(build), resident: residentPayArgs(build) };
}

/**
 * The argument schemas carry their completion callbacks (over one build), and the SDK marks a schema
 * completable once for good: made once per build and shared by that build's requests.
 */
const schemaCache = new WeakMap<LoadedBuild, ReturnType<typeof argSchemas>>();
let noBuildSchemas: ReturnType<typeof argSchemas> | null = null;
function schemasFor(build: LoadedBuild | null): ReturnType<typeof argSchemas> {
  if (!build) return (noBuildSchemas ??= argSchemas(null));
  let s = schemaCache.get(build);
  if (!s) schemaCache.set(build, (s = argSchemas(build)));
  return s;
}

function loaded(deps: ToolDeps): LoadedBuild {
  if (!deps.build) throw new ProtocolError(ProtocolErrorCode.InternalError, 'No published data is loaded yet; retry shortly.');
  return deps.build;
}

export function registerPrompts(server: McpServer, deps: ToolDeps): void {
  // a stateless server's prompts never change during a session (the SDK would announce listChanged: true)
  server.server.registerCapabilities({ prompts: { listChanged: false } });
  const s = schemasFor(deps.build);
  server.registerPrompt(EVALUATE_JOB_OFFER, { ...evaluateJobOfferMeta, argsSchema: s.evaluate }, (args) => promptResult(evaluateJobOfferPrompt(loaded(deps), args)));
  server.registerPrompt(COMPARE_SPECIALTIES, { ...compareSpecialtiesMeta, argsSchema: s.compare }, (args) => promptResult(compareSpecialtiesPrompt(loaded(deps), args)));
  server.registerPrompt(RESIDENT_PAY, { ...residentPayMeta, argsSchema: s.resident }, (args) => promptResult(residentPayPrompt(loaded(deps), args, deps.day)));
}
