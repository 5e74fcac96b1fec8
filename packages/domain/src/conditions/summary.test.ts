import { describe, expect, it } from 'vitest';
import { summarizeCondition } from './summary.js';
import type { ConditionNode } from './types.js';

const labels = { countryCode: 'Country', device: 'Device' } as Record<string, string>;
const words = {
  ...(await import('./summary.js')).ENGLISH_SUMMARY_WORDS,
  field: (variable: string) => labels[variable] ?? variable,
};

describe('summarizeCondition', () => {
  it('reads a tree in words: "Country is DE and Device is mobile", "Everyone"', () => {
    const tree: ConditionNode = {
      type: 'AndCondition',
      data: {
        Conditions: [
          { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['DE'] } },
          { type: 'InCondition', data: { Var: 'device', Operation: 'IN', Values: ['mobile'] } },
        ],
      },
    } as ConditionNode;
    expect(summarizeCondition(tree, words)).toBe('Country is DE and Device is mobile');
    expect(summarizeCondition({ type: 'AllCondition' }, words)).toBe('Everyone');
  });

  it('joins values with "or", negates, groups, and names ids through the labels', () => {
    const tree = {
      type: 'OrCondition',
      data: {
        Conditions: [
          { type: 'InCondition', data: { Var: 'countryCode', Operation: 'NOT IN', Values: ['DE', 'AT', 'CH'] } },
          {
            type: 'NotCondition',
            data: { Condition: { type: 'EqualCondition', data: { Var: 'campaignId', Value: '7' } } },
          },
          {
            type: 'AndCondition',
            data: {
              Conditions: [
                { type: 'CompareIntCondition', data: { Var: 'age', Values: { Value: 30, Comparator: '>=' } } },
                { type: 'InCondition', data: { Var: 'referrer', Operation: 'contains', Values: ['google'] } },
              ],
            },
          },
        ],
      },
    } as ConditionNode;
    const names = (variable: string, value: string) => (variable === 'campaignId' ? `Spring (${value})` : value);
    expect(summarizeCondition(tree, words, names)).toBe(
      'Country is not DE, AT, or CH, not (campaignId is Spring (7)), or (age at least 30 and referrer contains google)',
    );
  });
});
