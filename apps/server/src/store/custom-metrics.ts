// Custom metrics, formulas over a report's figures that an operator defines for their workspace
// (packages/domain/src/custom-metrics.ts parses and evaluates them). One row each: a key unique in its
// workspace (`cm_rpm`), which is the metric's name in report rows and in `order_by`.
import type { Generated } from 'kysely';

export interface CustomMetricTable {
  id: Generated<number>;
  workspace_id: number;
  key: string;
  name: string;
  formula: string;
  created_at: string;
  updated_at: string;
}
