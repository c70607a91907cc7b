/**
 * Record-level noise infusion (README: Disclosure control), pure: each report's pay values (total, base salary,
 * bonus) are multiplied by its permanent secret factor (disclosure.ts: recordFactor) before anything is
 * computed from them. The same factor for the three keeps base + bonus = total where a report gives all
 * three (to a dollar: values are kept in whole dollars). Hours, years, wRVUs and categories are not pay and stay as reported; pay per wRVU follows the
 * distorted total.
 */
import type { ReportColumns } from './dataset.ts';
import { recordFactor } from './disclosure.ts';

export function infuseRecordNoise(r: ReportColumns, factorWords: Uint32Array): void {
  for (let i = 0; i < factorWords.length; i++) {
    const f = recordFactor(factorWords[i]!);
    r.total[i] = Math.round(r.total[i]! * f);
    r.base[i] = Math.round(r.base[i]! * f); // NaN stays NaN
    r.bonus[i] = Math.round(r.bonus[i]! * f);
  }
}
