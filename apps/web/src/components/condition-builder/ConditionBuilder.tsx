import { Alert, Stack } from '@mantine/core';
import {
  availableConditionFields,
  CONDITION_MAX_DEPTH,
  type ConditionNode,
  type ConditionTrace,
  marksOfEditorTree,
  traceMarks,
} from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BuilderNode, ConditionValue } from './builderTree';
import { ConditionBuilderContext, type ConditionBuilderSettings, type FlowType } from './ConditionBuilderContext';
import { ConditionGroup } from './ConditionGroup';
import { useConditionForm } from './useConditionForm';

export interface ConditionBuilderProps {
  /** The stored condition: JSON text (§3.8), a tree, or nothing (AllCondition). */
  value: ConditionValue;
  /**
   * Called after every change with the tree to store as JSON text and as a tree, pruned per §5.4
   * (invalid leaves and empty groups dropped; nothing left is `{"type":"AllCondition"}`). Controlled:
   * give the text back as `value`.
   */
  onChange: (text: string, tree: ConditionNode) => void;
  /** Whose campaigns and segments the rules offer. */
  flowType: FlowType;
  /** The §3.9 fields offered for new rules; all when absent. */
  availableRules?: readonly string[];
  /** Rule inputs show visible labels (they always have accessible names). */
  labelsEnabled?: boolean;
  /** §5.5: deepest group level; "Add group" is disabled at it. */
  maxDepth?: number;
  /** Segments not offered by segmentId rules: the current segment and its own `segments_chain` (§3.9). */
  excludeSegments?: readonly string[];
  disabled?: boolean;
  /** A simulation's trace of this condition; each rule and group is marked true or false by it. */
  trace?: ConditionTrace;
}

const NONE: readonly string[] = [];

/** The condition builder of §2.7 as a controlled component. */
export function ConditionBuilder({
  value,
  onChange,
  flowType,
  availableRules,
  labelsEnabled = false,
  maxDepth = CONDITION_MAX_DEPTH,
  excludeSegments = NONE,
  disabled = false,
  trace,
}: ConditionBuilderProps) {
  const { t } = useTranslation();
  const form = useConditionForm(value, onChange);
  const fields = useMemo(() => availableConditionFields(availableRules, flowType), [availableRules, flowType]);
  // Marks only while the rules shown are the rules traced; an edit since leaves none rather than wrong ones.
  const marks = useMemo(
    () => (trace ? marksOfEditorTree(form.group, traceMarks(trace), (node) => (node as BuilderNode).id) : undefined),
    [trace, form.group],
  );
  const settings: ConditionBuilderSettings = {
    flowType,
    fields,
    maxDepth,
    excludeSegments,
    labelsEnabled,
    disabled,
    root: form.group,
    change: form.change,
    marks: marks ?? undefined,
  };

  return (
    <ConditionBuilderContext.Provider value={settings}>
      <Stack gap="xs">
        {form.unreadable && (
          <Alert color="orange" variant="light" p="xs">
            {t('controls:conditionBuilder.unreadable')}
          </Alert>
        )}
        {marks === null && (
          <Alert color="gray" variant="light" p="xs">
            {t('controls:conditionBuilder.changedSinceSimulation')}
          </Alert>
        )}
        <ConditionGroup group={form.group} path={[]} depth={1} />
      </Stack>
    </ConditionBuilderContext.Provider>
  );
}
