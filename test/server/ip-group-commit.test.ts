/**
 * Group commit of per-IP counts (SqliteServiceStore.hitIpMany, used by the limiter for the requests of one
 * event-loop turn) decides every request exactly as the single-request statement would have, in order:
 * random sequences of groups (several addresses, limits, windows moving on) give the same decisions and the
 * same stored counters on two stores, one fed request by request, one group by group.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { useTempDir } from '../helpers/temp-dir.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import type { IpDecision } from '../../server/store/types.ts';

const work = useTempDir('group-commit');

const group = fc.record({
  ips: fc.array(fc.constantFrom('10.0.0.1', '10.0.0.2', '2001:db8::/56', '10.0.0.3'), { minLength: 1, maxLength: 40 }),
  minuteStep: fc.constantFrom(0, 0, 0, 1, 2),
  dayStep: fc.constantFrom(0, 0, 0, 0, 1),
});

describe('SqliteServiceStore.hitIpMany', () => {
  it('gives the decisions and counters of one hitIp per request, in order', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }), (groups, perMinute, perDay) => {
        run++;
        const single = new SqliteServiceStore(join(work.path, `single-${run}.db`));
        const grouped = new SqliteServiceStore(join(work.path, `grouped-${run}.db`));
        try {
          const limits = { perMinute, perDay };
          let minute = 29_000_000;
          let day = 20_000;
          for (const g of groups) {
            minute += g.minuteStep;
            day += g.dayStep;
            const w = { minute, day };
            const one: IpDecision[] = g.ips.map((ip) => single.hitIp(ip, w, limits));
            const many = grouped.hitIpMany(g.ips, w, limits);
            expect(many).toEqual(one);
          }
          const rows = (s: SqliteServiceStore) => s.db.prepare('SELECT * FROM ip_counters ORDER BY ip').all();
          expect(rows(grouped)).toEqual(rows(single));
        } finally {
          single.close();
          grouped.close();
        }
      }),
      { seed: 4242, numRuns: 60 },
    );
  });

  it('a refused request is not counted, and a limit of N admits exactly N of a larger group', () => {
    const s = new SqliteServiceStore(join(work.path, 'exact.db'));
    try {
      const d = s.hitIpMany(Array.from({ length: 120 }, () => '10.9.9.9'), { minute: 1, day: 1 }, { perMinute: 50, perDay: 1000 });
      expect(d.filter((x) => x.allowed)).toHaveLength(50);
      expect(d.slice(0, 50).every((x) => x.allowed)).toBe(true);
      expect(d.slice(50).every((x) => !x.allowed && x.limitedBy === 'minute' && x.minuteCount === 50)).toBe(true);
      expect(s.db.prepare('SELECT minute_count, day_count FROM ip_counters WHERE ip = ?').get('10.9.9.9')).toEqual({ minute_count: 50, day_count: 50 });
    } finally {
      s.close();
    }
  });
});
