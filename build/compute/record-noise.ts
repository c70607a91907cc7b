/**
 * Record-level noise infusion (README: Disclosure control), pure: each report's pay values (total, base salary,
 * bonus) are multiplied by its permanent secret factor (disclosure.ts: recordFactor) before anything is
 * computed from them. The same factor for the three keeps base + bonus = total where a report gives all
 * three (to a dollar: values are kept in whole dollars). The whole offer's money values (call pay, one-time payments,
 * CME money) and the contract's $/wRVU take the same factor; weeks, nights, miles and years are not pay. Hours, years, wRVUs and categories are not pay and stay as reported; pay per wRVU follows the
 * distorted total.
 */
import type { ReportColumns } from './dataset.ts';
import { recordFactor } from './disclosure.ts';

/** The whole offer's money values, distorted like pay (the contract's $/wRVU rate too, kept to cents). */
export const OFFER_PAY_COLUMNS = ['call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance'] as const;

export function infuseRecordNoise(r: ReportColumns, factorWords: Uint32Array): void {
  for (let i = 0; i < factorWords.length; i++) {
    const f = recordFactor(factorWords[i]!);
    r.total[i] = Math.round(r.total[i]! * f);
    r.base[i] = Math.round(r.base[i]! * f); // NaN stays NaN
    r.bonus[i] = Math.round(r.bonus[i]! * f);
    for (const c of OFFER_PAY_COLUMNS) r.offer[c][i] = Math.round(r.offer[c][i]! * f);
    r.offer.wrvu_conversion_rate[i] = Math.round(r.offer.wrvu_conversion_rate[i]! * f * 100) / 100;
  }
}
