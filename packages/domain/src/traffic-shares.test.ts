import { describe, expect, it } from 'vitest';
import { trafficShares } from './traffic-shares.js';

const on = (weight: number) => ({ enabled: true, weight });
const off = (weight: number) => ({ enabled: false, weight });

describe('share of traffic by weight (§3.4, as the routing weighs)', () => {
  it.each([
    ['one enabled row takes everything', [on(100)], [1]],
    ['equal weights share equally', [on(100), on(100)], [0.5, 0.5]],
    ['weights 1 : 2 : 1', [on(50), on(100), on(50)], [0.25, 0.5, 0.25]],
    ['a disabled row has no share and takes nothing', [on(30), off(500), on(10)], [0.75, null, 0.25]],
    ['an enabled row of weight 0 gets 0 %', [on(0), on(40)], [0, 1]],
    ['every enabled row at 0: nothing is routed', [on(0), on(0)], [0, 0]],
    ['every row disabled', [off(100), off(100)], [null, null]],
    ['a negative or unreadable weight counts as 0', [on(-5), on(Number.NaN), on(20)], [0, 0, 1]],
    ['no rows', [], []],
  ] as const)('%s', (_, rows, expected) => {
    expect(trafficShares(rows)).toEqual(expected);
  });

  it('counts a row without an enabled flag as enabled, and shares add up to 1', () => {
    const shares = trafficShares([{ weight: 1 }, { weight: 1 }, { weight: 1 }]);
    expect(shares.map((share) => share?.toFixed(4))).toEqual(['0.3333', '0.3333', '0.3333']);
    expect(shares.reduce<number>((sum, share) => sum + (share ?? 0), 0)).toBeCloseTo(1);
  });
});
