import { z } from 'zod';
import { MAX_TRAFFIC_SOURCE_PARAMETERS } from '../constants.js';
import { ZMoney, ZName } from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { ZCostModel, ZPostbackEventEntries } from './shared.js';
import { defineResource } from './types.js';

export const COST_PARAMETER_MESSAGE = 'Use letters, digits, _, -, . and [ ].';

export const INTERNAL_TOKENS = Array.from({ length: MAX_TRAFFIC_SOURCE_PARAMETERS }, (_, index) => `var${index + 1}`);

/** §3.7: a traffic-source parameter; internal_token is var1, var2, … by position. */
export const ZTrafficSourceParameter = z.object({
  name: ZName,
  ts_parameter: z.string().trim().min(1, { error: M.required }).max(64, { error: M.tooLong }),
  ts_token: z.string().trim().max(64, { error: M.tooLong }).default(''),
  internal_token: z.enum(INTERNAL_TOKENS as [string, ...string[]]),
  enabled: z.boolean().default(true),
});
export type TTrafficSourceParameter = z.infer<typeof ZTrafficSourceParameter>;

export const ZTrafficSourceForm = z.object({
  name: ZName,
  parameters: z
    .array(ZTrafficSourceParameter)
    .max(MAX_TRAFFIC_SOURCE_PARAMETERS, { error: M.tooManyParameters })
    .default([]),
  postback_events: ZPostbackEventEntries,
  cost_model: ZCostModel,
  default_cost: ZMoney.default(0),
  /** The URL parameter carrying each click's cost, read by campaigns whose cost model is Auto. */
  cost_parameter: z
    .string()
    .trim()
    .max(64, { error: M.tooLong })
    .regex(/^[A-Za-z0-9_.\-[\]]*$/, { error: COST_PARAMETER_MESSAGE })
    .default(''),
});
export type TTrafficSourceForm = z.infer<typeof ZTrafficSourceForm>;

export const trafficSources = defineResource({
  name: 'traffic-sources',
  apiPath: 'traffic-sources',
  route: '/admin/traffic-sources',
  idField: 'external_id',
  permission: { section: 'general', resource: 'traffic-source' },
  archivable: true,
  menuSection: 'general',
  lookup: { value: 'external_id', label: 'name' },
  form: ZTrafficSourceForm,
  references: [{ field: 'postback_events.*.postback_event_external_id', resource: 'postback-events' }],
});

/** §4: after a delete (or reorder) internal tokens follow the position: var1, var2, … */
export function renumberParameters<T extends { internal_token: string }>(parameters: readonly T[]): T[] {
  return parameters.map((parameter, index) => ({ ...parameter, internal_token: `var${index + 1}` }));
}

/** §5.5: the add button disappears at 10 parameters. */
export function canAddParameter(parameters: readonly unknown[]): boolean {
  return parameters.length < MAX_TRAFFIC_SOURCE_PARAMETERS;
}
