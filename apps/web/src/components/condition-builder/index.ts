export type { ConditionValue } from './builderTree';
export { ConditionBuilder, type ConditionBuilderProps } from './ConditionBuilder';
export type { FlowType } from './ConditionBuilderContext';
export { ConditionBuilderControl, type ConditionBuilderInput } from './ConditionBuilderControl';
export { ConditionLabel, type ConditionLabelProps } from './ConditionLabel';
