export { PayoutRuleSetsRepeater, type PayoutRuleSetsRepeaterProps } from './PayoutRuleSetsRepeater';
export { type PayoutRuleSetsInput, PayoutRuleSetsRepeaterControl } from './PayoutRuleSetsRepeaterControl';
export * from './payoutRuleSets';
