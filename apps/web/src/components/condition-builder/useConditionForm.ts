import { type ConditionNode, ruleToLeaf, toEditorForm } from '@switchyard/domain';
import { useContext, useEffect, useRef, useState } from 'react';
import { IncompleteRulesContext } from '../form/incompleteRules';
import {
  type BuilderGroup,
  type BuilderNode,
  builderFromValue,
  builderGroup,
  type ConditionValue,
  conditionValueKey,
  readConditionValue,
  storedCondition,
} from './builderTree';

/** The fields of the rules §5.4 leaves out of the stored condition, in the order shown. */
export function incompleteRuleFields(node: BuilderNode): string[] {
  if (node.type === 'rule') return ruleToLeaf(node) === null ? [node.var] : [];
  return node.children.flatMap(incompleteRuleFields);
}

export interface ConditionForm {
  group: BuilderGroup;
  /** The value given could not be read as a condition; the builder started from AllCondition. */
  unreadable: boolean;
  change: (group: BuilderGroup) => void;
}

/**
 * The editor form kept locally: a rule still being filled in is not stored (§5.4) yet must stay on
 * screen. Every change reports the stored JSON; the form is rebuilt from `value` only when the value
 * changes from outside (a record loaded, a reset), not when our own report comes back.
 */
export function useConditionForm(
  value: ConditionValue,
  onChange: (text: string, tree: ConditionNode) => void,
): ConditionForm {
  const [group, setGroup] = useState(() => builderFromValue(value));
  const [known, setKnown] = useState(() => conditionValueKey(value));
  const incoming = conditionValueKey(value);
  let current = group;
  if (incoming !== known) {
    current = builderFromValue(value);
    setKnown(incoming);
    setGroup(current);
  }

  const change = (next: BuilderGroup) => {
    const tree = storedCondition(next);
    const text = JSON.stringify(tree);
    setGroup(next);
    if (text === known) return;
    setKnown(text);
    onChange(text, tree);
  };

  // The form this builder is on learns, at save, which shown rules the stored condition leaves out.
  const registry = useContext(IncompleteRulesContext);
  const groupRef = useRef(current);
  groupRef.current = current;
  useEffect(() => {
    if (!registry) return;
    return registry.register({
      incomplete: () => incompleteRuleFields(groupRef.current),
      settle: () => setGroup(builderGroup(toEditorForm(storedCondition(groupRef.current)))),
    });
  }, [registry]);

  return { group: current, unreadable: readConditionValue(value).unreadable, change };
}
