import { describe, expect, it } from 'vitest';
import { type ArmFigures, sampleBeta, thompsonWeights } from './optimization.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const arm = (id: string, clicks: number, conversions: number, revenue = conversions * 10, cost = 0): ArmFigures => ({
  id,
  clicks,
  conversions,
  revenue,
  cost,
});

describe('Thompson sampling weights', () => {
  it('gives the clearly better arm most of the traffic and keeps every arm at the floor', () => {
    const answer = thompsonWeights([arm('a', 2000, 40), arm('b', 2000, 60), arm('c', 2000, 100)], {
      metric: 'cr',
      floor: 0.05,
      minClicks: 100,
      random: seeded(1),
    });
    expect(answer.moved).toBe(true);
    const [a, b, c] = answer.arms;
    expect(c?.weight).toBeGreaterThan(0.85);
    expect(a?.weight).toBeGreaterThanOrEqual(0.05);
    expect(b?.weight).toBeGreaterThanOrEqual(0.05);
    expect(answer.arms.reduce((sum, x) => sum + x.weight, 0)).toBeCloseTo(1, 9);
    // The posterior mean sits near the observed rate, inside its 95 % interval.
    expect(c?.mean).toBeCloseTo(0.05, 2);
    expect(c?.low).toBeLessThan(0.05);
    expect(c?.high).toBeGreaterThan(0.05);
    expect(c?.p_best).toBeGreaterThan(0.95);
  });

  it('does not move before every arm has the minimum sample', () => {
    const answer = thompsonWeights([arm('a', 99, 0), arm('b', 500, 50)], {
      metric: 'cr',
      floor: 0.05,
      minClicks: 100,
      random: seeded(2),
    });
    expect(answer.moved).toBe(false);
  });

  it('ranks by earnings per click when payouts differ, and by return on cost for ROI', () => {
    // a converts twice as often, b pays four times as much per conversion.
    const arms = [arm('a', 5000, 200, 200 * 5, 1000), arm('b', 5000, 100, 100 * 20, 5000)];
    const byRate = thompsonWeights(arms, { metric: 'cr', floor: 0.05, minClicks: 1, random: seeded(3) });
    const byEarnings = thompsonWeights(arms, { metric: 'epc', floor: 0.05, minClicks: 1, random: seeded(3) });
    const byReturn = thompsonWeights(arms, { metric: 'roi', floor: 0.05, minClicks: 1, random: seeded(3) });
    expect(byRate.arms[0]?.p_best).toBeGreaterThan(0.99);
    expect(byEarnings.arms[1]?.p_best).toBeGreaterThan(0.99);
    // ROI: a returns 1000/1000 - 1 = 0; b returns 2000/5000 - 1 < 0.
    expect(byReturn.arms[0]?.p_best).toBeGreaterThan(0.99);
  });

  it('keeps equal shares when the floor cannot be met for every arm', () => {
    const arms = Array.from({ length: 4 }, (_, i) => arm(String(i), 1000, 10 * (i + 1)));
    const answer = thompsonWeights(arms, { metric: 'cr', floor: 0.3, minClicks: 1, random: seeded(4) });
    for (const estimate of answer.arms) expect(estimate.weight).toBeCloseTo(0.25, 9);
  });

  it('samples Beta with the right mean', () => {
    const random = seeded(5);
    let sum = 0;
    for (let i = 0; i < 20_000; i += 1) sum += sampleBeta(3, 7, random);
    expect(sum / 20_000).toBeCloseTo(0.3, 2);
  });
});
