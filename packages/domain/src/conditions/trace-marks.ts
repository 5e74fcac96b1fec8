// A condition's trace in the builder's shape (§3.8), so the builder can mark each of its own
// rules and groups true or false where they stand, and tell when what it shows is no longer what was traced.
import { ruleToLeaf, toEditorForm } from './convert.js';
import type { ConditionTrace, TracedValue } from './evaluate.js';
import type { EditorGroup, EditorNode, LeafCondition } from './types.js';

export interface RuleMark {
  type: 'rule';
  verdict: boolean;
  /** What the visitor had for the rule's field. */
  value: TracedValue;
  /** The leaf that was tested, to tell it from the rule the builder now shows. */
  leaf: LeafCondition;
}

export interface GroupMark {
  type: 'group';
  /** The group's verdict, its NOT applied. */
  verdict: boolean;
  condition: 'AND' | 'OR';
  not: boolean;
  children: NodeMark[];
}

export type NodeMark = GroupMark | RuleMark;

/** As toEditorForm shapes a stored tree: AND/OR groups, a NOT folded into its group. */
function markOf(trace: ConditionTrace): NodeMark {
  switch (trace.type) {
    case 'AllCondition':
      return { type: 'group', verdict: true, condition: 'AND', not: false, children: [] };
    case 'AndCondition':
    case 'OrCondition':
      return {
        type: 'group',
        verdict: trace.verdict,
        condition: trace.type === 'AndCondition' ? 'AND' : 'OR',
        not: false,
        children: trace.conditions.map(markOf),
      };
    case 'NotCondition': {
      const inner = markOf(trace.condition);
      if (inner.type === 'group') return { ...inner, not: !inner.not, verdict: trace.verdict };
      return { type: 'group', verdict: trace.verdict, condition: 'AND', not: true, children: [inner] };
    }
    default: {
      const leaf = { type: trace.type, data: trace.data } as LeafCondition;
      return { type: 'rule', verdict: trace.verdict, value: trace.value, leaf: asBuilderSavesIt(leaf) };
    }
  }
}

/** A leaf as the builder would save it (an InCondition's operation spelled out), to compare like with like. */
function asBuilderSavesIt(leaf: LeafCondition): LeafCondition {
  const rule = toEditorForm(leaf).children[0];
  return (rule?.type === 'rule' && ruleToLeaf(rule)) || leaf;
}

/** A trace as the builder's top group (always a group, as toEditorForm). */
export function traceMarks(trace: ConditionTrace): GroupMark {
  const mark = markOf(trace);
  return mark.type === 'group'
    ? mark
    : { type: 'group', verdict: mark.verdict, condition: 'AND', not: false, children: [mark] };
}

/** JSON with sorted keys: two leaves are the same whatever order their data was written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonical(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether a node would be stored at all (§5.4): a rule not filled in, or a group of only such, is not. */
function isStored(node: EditorNode): boolean {
  return node.type === 'rule' ? ruleToLeaf(node) !== null : node.children.some(isStored);
}

/**
 * The marks of an editor tree's nodes, by `key(node)`, or null when the tree is not the one traced (edited
 * since). Nodes the builder holds but would not store (a rule still empty) get no mark and change nothing.
 */
export function marksOfEditorTree(
  group: EditorGroup,
  mark: GroupMark,
  key: (node: EditorNode) => string,
): Map<string, NodeMark> | null {
  const marks = new Map<string, NodeMark>();
  const visit = (node: EditorGroup, groupMark: GroupMark): boolean => {
    const stored = node.children.filter(isStored);
    // An empty group is stored as AllCondition: its AND/NOT are not kept, so they cannot differ.
    if (stored.length > 0 && (node.condition !== groupMark.condition || node.not !== groupMark.not)) return false;
    if (stored.length !== groupMark.children.length) return false;
    marks.set(key(node), groupMark);
    return stored.every((child, index) => {
      const childMark = groupMark.children[index];
      if (child.type === 'group') return childMark?.type === 'group' && visit(child, childMark);
      if (childMark?.type !== 'rule' || canonical(ruleToLeaf(child)) !== canonical(childMark.leaf)) return false;
      marks.set(key(child), childMark);
      return true;
    });
  };
  return visit(group, mark) ? marks : null;
}
