import type { ConditionField, NodeMark } from '@switchyard/domain';
import { createContext, useContext } from 'react';
import type { BuilderGroup } from './builderTree';

/** §3.11: whose data a builder works on; campaigns and segments come from that side. */
export type FlowType = 'api' | 'tracker';

export interface ConditionBuilderSettings {
  flowType: FlowType;
  /** The rule fields offered for new rules (§3.9, restricted by `availableRules`). */
  fields: readonly ConditionField[];
  maxDepth: number;
  /** Segment ids not offered: the current segment and its own `segments_chain` (§3.9). */
  excludeSegments: readonly string[];
  /** Rule inputs carry visible labels (otherwise only accessible names). */
  labelsEnabled: boolean;
  disabled: boolean;
  /** The whole working copy and its setter; groups and rules change it by path. */
  root: BuilderGroup;
  change: (root: BuilderGroup) => void;
  /** Each node's mark from a simulation, by node id; absent when there is none to show. */
  marks?: ReadonlyMap<string, NodeMark>;
}

export const ConditionBuilderContext = createContext<ConditionBuilderSettings | null>(null);

export function useConditionBuilderContext(): ConditionBuilderSettings {
  const settings = useContext(ConditionBuilderContext);
  if (!settings) throw new Error('useConditionBuilderContext must be used inside a ConditionBuilder');
  return settings;
}
