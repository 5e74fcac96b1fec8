// §3.8: the condition tree as it travels and is stored (JSON text in `condition` fields).

export const IN_OPERATIONS = ['IN', 'NOT IN'] as const;
export type InOperation = (typeof IN_OPERATIONS)[number];

export const VARS_OPERATIONS = ['IN', 'NOT IN', 'contains', 'starts with', 'ends with'] as const;
export type VarsOperation = (typeof VARS_OPERATIONS)[number];

/** Text fields of a visitor (isp, referrer) match by part too; which field allows which is in fields.ts. */
export type InConditionOperation = VarsOperation;

/** §3.9 numeric comparisons: more than, more than or equal, less than, less than or equal, equal, not equal. */
export const COMPARATORS = ['>', '>=', '<', '<=', '==', '!='] as const;
export type Comparator = (typeof COMPARATORS)[number];

export interface AllCondition {
  type: 'AllCondition';
}
export interface NotCondition {
  type: 'NotCondition';
  data: { Condition: ConditionNode };
}
export interface AndCondition {
  type: 'AndCondition';
  data: { Conditions: ConditionNode[] };
}
export interface OrCondition {
  type: 'OrCondition';
  data: { Conditions: ConditionNode[] };
}
export interface EqualCondition {
  type: 'EqualCondition';
  data: { Var: string; Value: string };
}
export interface SegmentCondition {
  type: 'SegmentCondition';
  data: { Var: string; Value: { Operation: InOperation; Values: string[] } };
}
export interface VarsCondition {
  type: 'VarsCondition';
  data: { Var: string; Value: { Var: string; Operation: VarsOperation; Value: string[] } };
}
export interface InCondition {
  type: 'InCondition';
  data: {
    Var: string;
    Operation: InConditionOperation;
    Values: string[];
    /** weekday only: the IANA zone the day is read in; '' or missing is UTC. */
    Timezone?: string;
  };
}
export interface BetweenCondition {
  type: 'BetweenCondition';
  data: { Var: string; Values: { Start: string; End: string; Timezone: string } };
}
export interface CompareIntCondition {
  type: 'CompareIntCondition';
  data: { Var: string; Values: { Value: number; Comparator: Comparator } };
}

export type LeafCondition =
  | EqualCondition
  | SegmentCondition
  | VarsCondition
  | InCondition
  | BetweenCondition
  | CompareIntCondition;
export type LeafType = LeafCondition['type'];
export type GroupCondition = AndCondition | OrCondition;
export type ConditionNode = AllCondition | NotCondition | GroupCondition | LeafCondition;

export const ALL_CONDITION: AllCondition = { type: 'AllCondition' };
export const ALL_CONDITION_TEXT = JSON.stringify(ALL_CONDITION);

// The builder's editor form (§3.8): groups carry condition, not and children; rules carry type `rule`.

export type GroupOperator = 'AND' | 'OR';

export interface RuleValues {
  EqualCondition: string;
  SegmentCondition: string[];
  VarsCondition: string[];
  InCondition: string[];
  BetweenCondition: { Start: string; End: string; Timezone: string };
  CompareIntCondition: { Value: number | ''; Comparator: Comparator };
}

export interface EditorRule<T extends LeafType = LeafType> {
  type: 'rule';
  /** The leaf type this rule writes. */
  condition: T;
  /** The field of §3.9 (`countryCode`, `vars`, `timeOfDay`, …). */
  var: string;
  operation?: string;
  /** Vars rules only: the var key (`subaff`, `utm_source`, `var1`, …). */
  key?: string;
  /** weekday rules only: the IANA zone the day is read in. */
  timezone?: string;
  values: RuleValues[T];
}

export interface EditorGroup {
  type: 'group';
  condition: GroupOperator;
  not: boolean;
  children: EditorNode[];
}

export type EditorNode = EditorGroup | EditorRule;
