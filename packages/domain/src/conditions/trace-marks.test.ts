import { describe, expect, it } from 'vitest';
import { toEditorForm } from './convert.js';
import { type ConditionContext, traceCondition } from './evaluate.js';
import { marksOfEditorTree, traceMarks } from './trace-marks.js';
import type { ConditionNode, EditorGroup, EditorNode, EditorRule } from './types.js';

// The builder marks its own rules with a trace, and only while they are the rules traced.

const context: ConditionContext = {
  fields: { countryCode: 'US', language: 'fr', isBot: 'false' },
  vars: {},
  now: new Date('2026-11-27T12:00:00Z'),
  inSegment: () => false,
};

const country = (Values: string[]): ConditionNode => ({
  type: 'InCondition',
  data: { Var: 'countryCode', Operation: 'IN', Values },
});
const language: ConditionNode = {
  type: 'InCondition',
  data: { Var: 'language', Operation: 'NOT IN', Values: ['de'] },
};
const bot: ConditionNode = { type: 'EqualCondition', data: { Var: 'isBot', Value: 'true' } };

/** Keys by position, as the builder's ids: "0", "0.1", … */
function keyed(group: EditorGroup): { tree: EditorGroup; key: (node: EditorNode) => string } {
  const keys = new Map<EditorNode, string>();
  const walk = (node: EditorNode, path: string) => {
    keys.set(node, path);
    if (node.type !== 'group') return;
    for (const [index, child] of node.children.entries()) walk(child, `${path}.${index}`);
  };
  walk(group, '0');
  return { tree: group, key: (node) => keys.get(node) ?? '?' };
}

function marks(stored: ConditionNode, shown: EditorGroup = toEditorForm(stored)) {
  const { tree, key } = keyed(shown);
  const found = marksOfEditorTree(tree, traceMarks(traceCondition(stored, context)), key);
  return found && Object.fromEntries([...found].map(([at, mark]) => [at, mark.verdict]));
}

describe('trace marks in the builder', () => {
  it('marks each rule and group where the builder shows it, NOT folded into its group', () => {
    const stored: ConditionNode = {
      type: 'OrCondition',
      data: {
        Conditions: [
          bot,
          {
            type: 'NotCondition',
            data: { Condition: { type: 'AndCondition', data: { Conditions: [country(['us'])] } } },
          },
          { type: 'AndCondition', data: { Conditions: [country(['gb']), language] } },
        ],
      },
    };
    expect(marks(stored)).toEqual({
      '0': false,
      '0.0': false,
      '0.1': false,
      '0.1.0': true,
      '0.2': false,
      '0.2.0': false,
      '0.2.1': true,
    });
  });

  it('reads a bare leaf and a NOT of a leaf as the builder does: inside a group', () => {
    expect(marks(country(['us']))).toEqual({ '0': true, '0.0': true });
    expect(marks({ type: 'NotCondition', data: { Condition: country(['us']) } })).toEqual({ '0': false, '0.0': true });
  });

  it('marks the group of every visitor true', () => {
    expect(marks({ type: 'AllCondition' })).toEqual({ '0': true });
  });

  it('compares an InCondition stored without its operation to the rule the builder shows', () => {
    // An older or hand-written tree may leave the operation out.
    const stored = { type: 'InCondition', data: { Var: 'countryCode', Values: ['us'] } } as unknown as ConditionNode;
    expect(marks(stored)).toEqual({ '0': true, '0.0': true });
  });

  it('gives no mark to a rule not filled in, and keeps the others', () => {
    const shown = toEditorForm({ type: 'AndCondition', data: { Conditions: [country(['us'])] } });
    shown.children.push({ type: 'rule', condition: 'InCondition', var: 'city', operation: 'IN', values: [] });
    expect(marks({ type: 'AndCondition', data: { Conditions: [country(['us'])] } }, shown)).toEqual({
      '0': true,
      '0.0': true,
    });
  });

  it('says nothing once a value, an operation, AND/OR or NOT changed since the trace', () => {
    const stored: ConditionNode = { type: 'AndCondition', data: { Conditions: [country(['us']), language] } };
    const edits: ((group: EditorGroup) => void)[] = [
      (group) => {
        group.children[0] = { ...(group.children[0] as EditorRule), values: ['us', 'ca'] };
      },
      (group) => {
        group.children[1] = { ...(group.children[1] as EditorRule), operation: 'IN' };
      },
      (group) => {
        group.condition = 'OR';
      },
      (group) => {
        group.not = true;
      },
      (group) => {
        group.children.pop();
      },
    ];
    for (const edit of edits) {
      const shown = toEditorForm(stored);
      edit(shown);
      expect(marks(stored, shown)).toBeNull();
    }
  });
});
