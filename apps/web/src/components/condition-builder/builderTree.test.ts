import { CONDITION_FIELDS, type ConditionField } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import {
  appendChild,
  builderFromValue,
  emptyRule,
  newGroup,
  readConditionValue,
  removeNode,
  storedConditionText,
  updateGroup,
} from './builderTree';
import { currentSegmentId } from './useExcludedSegments';

const field = (name: string) => CONDITION_FIELDS.find((candidate) => candidate.var === name) as ConditionField;

describe('builder tree', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['{"type":"AllCondition"}', false],
    ['{', true],
    ['{"type":"Nope"}', true],
  ])('reads %j (unreadable: %s) as AllCondition', (value, unreadable) => {
    expect(readConditionValue(value)).toEqual({ tree: { type: 'AllCondition' }, unreadable });
  });

  it('starts every rule of §3.9 empty, so none is stored before it is filled in', () => {
    for (const candidate of CONDITION_FIELDS) {
      const root = appendChild(newGroup(), [], emptyRule(candidate));
      expect(storedConditionText(root), candidate.var).toBe('{"type":"AllCondition"}');
    }
  });

  it('resets a group emptied by a delete to And without Not', () => {
    let root = appendChild(newGroup(), [], newGroup());
    root = appendChild(root, [0], { ...emptyRule(field('device')), values: ['mobile'] });
    root = updateGroup(root, [0], { not: true, condition: 'OR' });
    expect(storedConditionText(root)).toBe(
      '{"type":"AndCondition","data":{"Conditions":[{"type":"NotCondition","data":{"Condition":{"type":"OrCondition","data":{"Conditions":[{"type":"InCondition","data":{"Var":"device","Operation":"IN","Values":["mobile"]}}]}}}}]}}',
    );
    root = removeNode(root, [0, 0]);
    expect(root.children[0]).toMatchObject({ condition: 'AND', not: false, children: [] });
  });

  it('gives every node its own id', () => {
    const root = builderFromValue(
      '{"type":"OrCondition","data":{"Conditions":[{"type":"AndCondition","data":{"Conditions":[]}},{"type":"InCondition","data":{"Var":"device","Operation":"IN","Values":["mobile"]}}]}}',
    );
    const ids = [root.id, ...root.children.map((child) => child.id)];
    expect(new Set(ids).size).toBe(3);
  });
});

describe('current segment (§3.9)', () => {
  it.each<[string, 'api' | 'tracker', string | null]>([
    ['/admin/segments/edit/seg-1', 'api', 'seg-1'],
    ['/tracker/segments/edit/t%201', 'tracker', 't 1'],
    ['/admin/segments/edit/seg-1', 'tracker', null],
    ['/admin/segments/create', 'api', null],
    ['/admin/flows/edit/f1', 'api', null],
  ])('%s (%s) → %s', (pathname, flowType, expected) => {
    expect(currentSegmentId(flowType, pathname)).toBe(expected);
  });
});
