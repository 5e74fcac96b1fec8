import { Input } from '@mantine/core';
import { wrapperProps } from '../form/fieldProps';
import type { FormControlProps } from '../form/types';
import type { ConditionValue } from './builderTree';
import { ConditionBuilder, type ConditionBuilderProps } from './ConditionBuilder';
import type { FlowType } from './ConditionBuilderContext';
import { currentSegmentId, useExcludedSegments } from './useExcludedSegments';

/** What `element.input` of a `condition-builder` element may carry (§3.2). */
export interface ConditionBuilderInput {
  flowType?: FlowType;
  labelsEnabled?: boolean;
  availableRules?: string[];
  /** §5.5: the caller's depth limit; 10 when absent. */
  maxDepth?: number;
  /** Overrides the segments worked out from the URL (the current segment and its `segments_chain`). */
  excludeSegments?: string[];
}

/** On a segment's own screen the builder must not offer that segment nor its chain; that takes a lookup. */
function BuilderOnSegmentScreen({ current, ...props }: ConditionBuilderProps & { current: string }) {
  const excludeSegments = useExcludedSegments(props.flowType, current);
  return <ConditionBuilder {...props} excludeSegments={excludeSegments} />;
}

/**
 * `condition-builder` (§3.2): the builder of §2.7 as a form field. Value: the stored condition as JSON
 * text (§3.8), pruned per §5.4; `{"type":"AllCondition"}` when nothing is left.
 */
export function ConditionBuilderControl(props: FormControlProps) {
  const { element, value, onChange, label, description, disabled } = props;
  const input = (element.input ?? {}) as ConditionBuilderInput;
  const flowType: FlowType = input.flowType === 'tracker' ? 'tracker' : 'api';
  const current = input.excludeSegments ? null : currentSegmentId(flowType, window.location.pathname);
  const builder: ConditionBuilderProps = {
    value: value as ConditionValue,
    onChange: (text) => onChange(text),
    flowType,
    availableRules: input.availableRules,
    labelsEnabled: input.labelsEnabled,
    maxDepth: input.maxDepth,
    excludeSegments: input.excludeSegments,
    disabled,
  };
  return (
    <Input.Wrapper labelElement="div" {...wrapperProps(props)}>
      <div style={{ marginBlockStart: label || description ? 'var(--mantine-spacing-xs)' : undefined }}>
        {current ? <BuilderOnSegmentScreen {...builder} current={current} /> : <ConditionBuilder {...builder} />}
      </div>
    </Input.Wrapper>
  );
}
