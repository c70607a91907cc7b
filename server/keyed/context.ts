/** What the keyed API's middleware attaches to a request (res.locals), typed in one place. */
import type { Response } from 'express';
import type { ApiKeyRecord, QuotaWindows } from '../store/types.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { Plan } from './plans.ts';

export interface KeyedLocals {
  requestId: string;
  key?: ApiKeyRecord;
  plan?: Plan;
  now?: Date;
  windows?: QuotaWindows;
  /** counts after this request (set by the quota step or read for uncounted endpoints) */
  used?: { dayCount: number; monthCount: number };
  counted?: boolean;
  build?: LoadedBuild;
}

export function locals(res: Response): KeyedLocals {
  return res.locals as KeyedLocals;
}
