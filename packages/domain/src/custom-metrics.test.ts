import { describe, expect, it } from 'vitest';
import {
  CUSTOM_METRIC_FORMULA_MAX,
  customMetricKeyOf,
  evaluateFormula,
  formulaUsesMoney,
  parseFormula,
  ZCustomMetricForm,
} from './custom-metrics.js';
import { ZReportQuery } from './reports.js';

const figures = { clicks: 200, conversions: 8, approved: 6, revenue: 50, cost: 20, leads: 0 };

function value(text: string): number {
  const parsed = parseFormula(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return evaluateFormula(parsed.ast, figures);
}

describe('custom metric formulas', () => {
  it.each([
    ['revenue / clicks * 1000', 250],
    ['approved / conversions', 0.75],
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['8 / 4 / 2', 1],
    ['-cost + revenue', 30],
    ['- -2', 2],
    ['-(revenue - cost) * 2', -60],
    ['0.5 * clicks', 100],
    ['.5 + 1.', 1.5],
    ['  revenue/cost  ', 2.5],
    ['revenue / leads', 0],
    ['revenue / (cost - 20)', 0],
    ['1 / 3', 0.333333],
    ['0 * -1', 0],
  ])('%s = %s', (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it.each([
    ['', 1],
    ['   ', 1],
    ['revenue /', 10],
    ['revenue / clickz', 11],
    ['(clicks + 1', 12],
    ['clicks + 1)', 11],
    ['clicks $ 2', 8],
    ['clicks clicks', 8],
    ['* clicks', 1],
    ['1..2', 3],
    ['constructor', 1],
    ['__proto__ + 1', 1],
  ])('refuses %j at position %s', (text, position) => {
    const parsed = parseFormula(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.position).toBe(position);
      expect(parsed.message).toContain(`position ${position}`);
    }
  });

  it('bounds length and depth', () => {
    expect(parseFormula(`${'1+'.repeat(100).slice(0, CUSTOM_METRIC_FORMULA_MAX)}1`).ok).toBe(false);
    expect(parseFormula(`${'('.repeat(30)}1${')'.repeat(30)}`).ok).toBe(false);
    expect(parseFormula(`${'-'.repeat(30)}1`).ok).toBe(false);
    expect(parseFormula(`${'('.repeat(10)}1${')'.repeat(10)}`).ok).toBe(true);
  });

  it('gives 0 for what is not finite', () => {
    const parsed = parseFormula('clicks * clicks * clicks');
    if (!parsed.ok) throw new Error('parse');
    expect(evaluateFormula(parsed.ast, { clicks: 1e200 })).toBe(0);
  });

  it('knows which formulas read money', () => {
    const money = parseFormula('revenue / clicks');
    const plain = parseFormula('approved / conversions');
    if (!money.ok || !plain.ok) throw new Error('parse');
    expect(formulaUsesMoney(money.ast)).toBe(true);
    expect(formulaUsesMoney(plain.ast)).toBe(false);
  });

  it('makes keys from names', () => {
    expect(customMetricKeyOf('RPM (x1000)')).toBe('cm_rpm_x1000');
    expect(customMetricKeyOf('Approval rate')).toBe('cm_approval_rate');
    expect(customMetricKeyOf('数字')).toBe('cm_metric');
  });

  it('validates the form and accepts custom keys as order_by', () => {
    expect(ZCustomMetricForm.safeParse({ name: 'RPM', formula: 'revenue / clicks * 1000' }).success).toBe(true);
    const bad = ZCustomMetricForm.safeParse({ name: '', formula: 'revenue /' });
    expect(bad.success).toBe(false);
    expect(ZReportQuery.safeParse({ group_by: 'campaign', order_by: 'cm_rpm' }).success).toBe(true);
    expect(ZReportQuery.safeParse({ group_by: 'campaign', order_by: 'nope' }).success).toBe(false);
  });
});
