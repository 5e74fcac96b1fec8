import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';

/**
 * Weights that tune themselves: a path group may let Thompson sampling set the weights of its paths, or
 * of the offers and landers within each path, from what each arm earned over a recent window. The
 * operator's weights stay in force until every arm has the minimum sample.
 */
export const OPTIMIZE_MODES = ['off', 'on'] as const;
export const OPTIMIZE_METRICS = ['cr', 'epc', 'roi'] as const;
export type OptimizeMetric = (typeof OPTIMIZE_METRICS)[number];
export const OPTIMIZE_TARGETS = ['paths', 'offers_and_landers'] as const;
export type OptimizeTarget = (typeof OPTIMIZE_TARGETS)[number];

export const DEFAULT_OPTIMIZE_FLOOR_PERCENT = 5;
export const DEFAULT_OPTIMIZE_MIN_CLICKS = 100;
export const DEFAULT_OPTIMIZE_WINDOW_DAYS = 7;
/** How often the live weights are recomputed, by default. */
export const OPTIMIZE_INTERVAL_MS = 5 * 60_000;

const whole = (max: number) =>
  z
    .number({ error: M.invalidNumber })
    .int({ error: M.wholeNumber })
    .min(1, { error: M.invalidValue })
    .max(max, { error: M.tooLarge });

/** The optimization fields of a path group. */
export const optimizeFields = {
  optimize: z.enum(OPTIMIZE_MODES).default('off'),
  optimize_metric: z.enum(OPTIMIZE_METRICS).default('cr'),
  optimize_target: z.enum(OPTIMIZE_TARGETS).default('paths'),
  optimize_floor: z
    .number({ error: M.invalidNumber })
    .min(0, { error: M.notNegative })
    .max(30, { error: M.tooLarge })
    .default(DEFAULT_OPTIMIZE_FLOOR_PERCENT),
  optimize_min_clicks: whole(1_000_000).default(DEFAULT_OPTIMIZE_MIN_CLICKS),
  optimize_window_days: whole(90).default(DEFAULT_OPTIMIZE_WINDOW_DAYS),
};

/** What one arm (a path, an offer row or a lander row) earned in the window. */
export interface ArmFigures {
  id: string;
  /** Clicks (or leads, on the API side): the trials. */
  clicks: number;
  conversions: number;
  revenue: number;
  cost: number;
}

export interface ArmEstimate {
  id: string;
  /** The share of traffic the arm gets, 0…1. */
  weight: number;
  /** The posterior mean of the metric, and its central 95 % interval. */
  mean: number;
  low: number;
  high: number;
  /** The chance that this arm is the best on the metric. */
  p_best: number;
  clicks: number;
  conversions: number;
}

export interface BanditOptions {
  metric: OptimizeMetric;
  /** The least share of traffic any arm keeps, 0…1. */
  floor: number;
  minClicks: number;
  /** Monte Carlo draws per arm. */
  draws?: number;
  random?: () => number;
}

export interface BanditAnswer {
  /** False while some arm has fewer than the minimum clicks: the operator's weights stay. */
  moved: boolean;
  arms: ArmEstimate[];
}

/** Thompson sampling over `arms`: each arm's weight is its chance of being best, lifted to the floor. */
export function thompsonWeights(arms: readonly ArmFigures[], options: BanditOptions): BanditAnswer {
  const random = options.random ?? Math.random;
  const draws = options.draws ?? 4000;
  if (arms.length === 0) return { moved: false, arms: [] };
  // A conversion's value, pooled over the arms, stands in for an arm that has not converted yet.
  const pooledConversions = arms.reduce((sum, arm) => sum + arm.conversions, 0);
  const pooledRevenue = arms.reduce((sum, arm) => sum + arm.revenue, 0);
  const pooledValue = pooledConversions > 0 ? pooledRevenue / pooledConversions : 1;

  const samples = arms.map((arm) => {
    const successes = Math.max(0, Math.min(arm.conversions, arm.clicks));
    const failures = Math.max(0, arm.clicks - successes);
    // Revenue per conversion, shrunk towards the pooled value by one pseudo-conversion.
    const value = (arm.revenue + pooledValue) / (arm.conversions + 1);
    const costPerClick = arm.clicks > 0 ? arm.cost / arm.clicks : 0;
    const row = new Float64Array(draws);
    for (let d = 0; d < draws; d += 1) {
      const rate = sampleBeta(1 + successes, 1 + failures, random);
      row[d] = metricOf(options.metric, rate, value, costPerClick);
    }
    return row;
  });

  const wins = new Array<number>(arms.length).fill(0);
  for (let d = 0; d < draws; d += 1) {
    let best = 0;
    for (let a = 1; a < arms.length; a += 1) if ((samples[a]?.[d] ?? 0) > (samples[best]?.[d] ?? 0)) best = a;
    wins[best] = (wins[best] ?? 0) + 1;
  }

  const moved = arms.every((arm) => arm.clicks >= options.minClicks);
  const floor = Math.min(Math.max(options.floor, 0), 1 / arms.length);
  const spare = 1 - floor * arms.length;
  return {
    moved,
    arms: arms.map((arm, a) => {
      const sorted = Array.from(samples[a] ?? []).sort((x, y) => x - y);
      const pBest = (wins[a] ?? 0) / draws;
      return {
        id: arm.id,
        weight: floor + spare * pBest,
        mean: sorted.reduce((sum, x) => sum + x, 0) / Math.max(sorted.length, 1),
        low: quantile(sorted, 0.025),
        high: quantile(sorted, 0.975),
        p_best: pBest,
        clicks: arm.clicks,
        conversions: arm.conversions,
      };
    }),
  };
}

/** Conversion rate, earnings per click, or return on the click's cost (EPC alone when nothing was spent). */
function metricOf(metric: OptimizeMetric, rate: number, value: number, costPerClick: number): number {
  if (metric === 'cr') return rate;
  const epc = rate * value;
  if (metric === 'epc' || costPerClick <= 0) return epc;
  return epc / costPerClick - 1;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[index] ?? 0;
}

/** Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b). */
export function sampleBeta(a: number, b: number, random: () => number): number {
  const x = sampleGamma(a, random);
  const y = sampleGamma(b, random);
  return x + y > 0 ? x / (x + y) : 0.5;
}

/** Gamma(shape, 1) by Marsaglia and Tsang's method; shape < 1 through the boost Gamma(shape + 1)·U^(1/shape). */
function sampleGamma(shape: number, random: () => number): number {
  if (shape < 1) return sampleGamma(shape + 1, random) * random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = sampleNormal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

function sampleNormal(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** The key routing looks a live weight up by: the flow's kind and id, the path group's id, and the arm. */
export function liveWeightKey(flowKind: string, flow: string, group: string, arm: string): string {
  return `${flowKind}\u0000${flow}\u0000${group}\u0000${arm}`;
}
