import { Text, type TextProps } from '@mantine/core';
import {
  type ConditionLabels,
  type ConditionNode,
  campaigns,
  referencedSegments,
  summarizeCondition,
  trackerCampaigns,
} from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../api/useLookup';
import { useSegmentLookup } from '../../api/useSegmentLookup';
import { type ConditionValue, readConditionValue } from './builderTree';
import type { FlowType } from './ConditionBuilderContext';
import { useSummaryWords } from './useSummaryWords';

export interface ConditionLabelProps extends TextProps {
  /** The stored condition: JSON text, a tree, or nothing (AllCondition). */
  value: ConditionValue;
  /** Whose campaigns and segments the names come from. */
  flowType?: FlowType;
}

function usesCampaigns(node: ConditionNode): boolean {
  switch (node.type) {
    case 'NotCondition':
      return usesCampaigns(node.data.Condition);
    case 'AndCondition':
    case 'OrCondition':
      return node.data.Conditions.some(usesCampaigns);
    case 'EqualCondition':
      return node.data.Var === 'campaignId';
    default:
      return false;
  }
}

function NamedDescription({ tree, flowType, ...props }: { tree: ConditionNode; flowType: FlowType } & TextProps) {
  const campaignOptions = useLookup(flowType === 'tracker' ? trackerCampaigns : campaigns);
  const segmentOptions = useSegmentLookup(flowType === 'tracker' ? 'tracker-segments' : 'segments');
  const words = useSummaryWords();
  const text = useMemo(() => {
    const campaignNames = new Map(campaignOptions.map((option) => [String(option.value), option.label]));
    const segmentNames = new Map(segmentOptions.map((option) => [option.value, option.label]));
    const labels: ConditionLabels = (variable, value) => {
      if (variable === 'campaignId') return campaignNames.get(value) ?? value;
      if (variable === 'segmentId') return segmentNames.get(value) ?? value;
      return value;
    };
    return summarizeCondition(tree, words, labels);
  }, [tree, campaignOptions, segmentOptions, words]);
  return <Text {...props}>{text}</Text>;
}

/**
 * A condition in the interface language's words for path-group headers and payout rules (§2.8, §3.5),
 * e.g. "Country is US or CA and not (Device is mobile)", "Everyone", with campaign and segment names
 * instead of ids.
 */
export function ConditionLabel({ value, flowType = 'api', ...props }: ConditionLabelProps) {
  const words = useSummaryWords();
  const tree = useMemo(() => readConditionValue(value).tree, [value]);
  if (tree.type === 'AllCondition') return <Text {...props}>{words.everyone}</Text>;
  // Names need the lookups; a tree without campaigns or segments reads as it is, with no request.
  if (usesCampaigns(tree) || referencedSegments(tree).length > 0) {
    return <NamedDescription tree={tree} flowType={flowType} {...props} />;
  }
  return <Text {...props}>{summarizeCondition(tree, words)}</Text>;
}
