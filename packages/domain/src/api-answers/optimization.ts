import { z } from 'zod';
import { OPTIMIZE_METRICS, OPTIMIZE_TARGETS } from '../optimization.js';

/** One arm as the flow editor's optimization panel shows it. */
export const ZOptimizationArm = z.object({
  /** `path:{path}`, `offer:{path}:{row}` or `lander:{path}:{row}`. */
  arm: z.string(),
  kind: z.enum(['path', 'offer', 'lander']),
  path_id: z.string(),
  /** The offer or lander row's id (null for a path). */
  row_id: z.string().nullable(),
  /** The operator's weight, as a share of its choice (0…1). */
  configured_share: z.number(),
  /** The share routing gives it now: the live weight once the minimum sample is in, else the operator's. */
  live_share: z.number(),
  /** The metric's posterior mean and central 95 % interval. */
  mean: z.number(),
  low: z.number(),
  high: z.number(),
  /** The chance that this arm is the best on the metric. */
  p_best: z.number(),
  clicks: z.number(),
  conversions: z.number(),
});
export type OptimizationArm = z.infer<typeof ZOptimizationArm>;

export const ZOptimizationGroup = z.object({
  group_id: z.string(),
  name: z.string(),
  metric: z.enum(OPTIMIZE_METRICS),
  target: z.enum(OPTIMIZE_TARGETS),
  /** False while some arm lacks the minimum sample: the operator's weights stay in force. */
  moved: z.boolean(),
  computed_at: z.string().nullable(),
  arms: z.array(ZOptimizationArm),
});
export type OptimizationGroup = z.infer<typeof ZOptimizationGroup>;

/** `GET /api/tracker/flows/{id}/optimization` (and `/api/flows/{id}/optimization`). */
export const ZOptimizationAnswer = z.object({ groups: z.array(ZOptimizationGroup) });
export type OptimizationAnswer = z.infer<typeof ZOptimizationAnswer>;
