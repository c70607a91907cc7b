/** What the keyed API's pipeline learns about a request, and what a route answers, typed in one place. */
import type { ApiKeyRecord, QuotaWindows } from '../store/types.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { Plan } from './plans.ts';

export interface KeyedLocals {
  requestId: string;
  key?: ApiKeyRecord;
  plan?: Plan;
  now?: Date;
  windows?: QuotaWindows;
  /** counts after this request (set by the quota step or read for uncounted answers) */
  used?: { dayCount: number; monthCount: number };
  counted?: boolean;
  build?: LoadedBuild;
}

/** A route's successful answer: the JSON body and its Cache-Control (status 200). */
export interface Answer {
  body: unknown;
  cacheControl: string;
}
