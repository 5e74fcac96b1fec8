import { Alert, Stack } from '@mantine/core';
import { availableConditionFields, CONDITION_MAX_DEPTH, type ConditionNode } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConditionValue } from './builderTree';
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
}: ConditionBuilderProps) {
  const { t } = useTranslation();
  const form = useConditionForm(value, onChange);
  const fields = useMemo(() => availableConditionFields(availableRules, flowType), [availableRules, flowType]);
  const settings: ConditionBuilderSettings = {
    flowType,
    fields,
    maxDepth,
    excludeSegments,
    labelsEnabled,
    disabled,
    root: form.group,
    change: form.change,
  };

  return (
    <ConditionBuilderContext.Provider value={settings}>
      <Stack gap="xs">
        {form.unreadable && (
          <Alert color="orange" variant="light" p="xs">
            {t('controls:conditionBuilder.unreadable')}
          </Alert>
        )}
        <ConditionGroup group={form.group} path={[]} depth={1} />
      </Stack>
    </ConditionBuilderContext.Provider>
  );
}
