// Custom metrics. An operator defines a formula over a report's figures, such as
// `revenue / clicks * 1000` or `approved / conversions`; reports compute it per row and in the totals
// from the row's figures (never from the events), show it and sort by it like a built-in figure.
//
// The formula language: numbers, figure names (REPORT_METRICS), + - * /, parentheses and unary minus.
// It is parsed here by hand (no eval or Function: the dashboard runs under a CSP), bounded in length and
// nesting, and a division by zero gives 0, like the built-in figures.

import { z } from 'zod';
import { CUSTOM_METRIC_KEY, isMoneyMetric, REPORT_METRICS, type ReportMetric } from './reports.js';

export const CUSTOM_METRIC_FORMULA_MAX = 200;
export const CUSTOM_METRIC_NAME_MAX = 100;
/** How deeply parentheses and unary minus may nest. */
export const CUSTOM_METRIC_MAX_DEPTH = 20;

export type FormulaNode =
  | { type: 'number'; value: number }
  | { type: 'figure'; name: ReportMetric }
  | { type: 'negate'; operand: FormulaNode }
  | { type: 'binary'; operator: '+' | '-' | '*' | '/'; left: FormulaNode; right: FormulaNode };

export type FormulaResult = { ok: true; ast: FormulaNode } | { ok: false; message: string; position: number };

class FormulaError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

type Token =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'name'; name: string; position: number }
  | { kind: 'operator'; operator: '+' | '-' | '*' | '/' | '(' | ')'; position: number }
  | { kind: 'end'; position: number };

/** Positions are 1-based, as a person counts characters. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const position = index + 1;
    if (/[0-9.]/.test(char)) {
      const match = /^(\d+(\.\d*)?|\.\d+)/.exec(text.slice(index));
      if (!match) throw new FormulaError(`Unexpected “${char}” at position ${position}.`, position);
      tokens.push({ kind: 'number', value: Number(match[0]), position });
      index += match[0].length;
      continue;
    }
    if (/[a-z_]/i.test(char)) {
      const match = /^[a-z_][a-z0-9_]*/i.exec(text.slice(index)) as RegExpExecArray;
      tokens.push({ kind: 'name', name: match[0], position });
      index += match[0].length;
      continue;
    }
    if ('+-*/()'.includes(char)) {
      tokens.push({ kind: 'operator', operator: char as '+', position });
      index += 1;
      continue;
    }
    throw new FormulaError(`Unexpected “${char}” at position ${position}.`, position);
  }
  tokens.push({ kind: 'end', position: text.length + 1 });
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private isOperator(...operators: string[]): boolean {
    const token = this.peek();
    return token.kind === 'operator' && operators.includes(token.operator);
  }

  parse(): FormulaNode {
    const node = this.expression(0);
    const token = this.peek();
    if (token.kind !== 'end') throw this.unexpected(token);
    return node;
  }

  private unexpected(token: Token): FormulaError {
    if (token.kind === 'end')
      return new FormulaError(`The formula ends too early at position ${token.position}.`, token.position);
    const text = token.kind === 'number' ? String(token.value) : token.kind === 'name' ? token.name : token.operator;
    return new FormulaError(`Unexpected “${text}” at position ${token.position}.`, token.position);
  }

  private expression(depth: number): FormulaNode {
    let left = this.term(depth);
    while (this.isOperator('+', '-')) {
      const operator = (this.tokens[this.index++] as { operator: '+' | '-' }).operator;
      left = { type: 'binary', operator, left, right: this.term(depth) };
    }
    return left;
  }

  private term(depth: number): FormulaNode {
    let left = this.unary(depth);
    while (this.isOperator('*', '/')) {
      const operator = (this.tokens[this.index++] as { operator: '*' | '/' }).operator;
      left = { type: 'binary', operator, left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): FormulaNode {
    const token = this.peek();
    if (depth > CUSTOM_METRIC_MAX_DEPTH) {
      throw new FormulaError(`The formula nests too deeply at position ${token.position}.`, token.position);
    }
    if (this.isOperator('-')) {
      this.index += 1;
      return { type: 'negate', operand: this.unary(depth + 1) };
    }
    if (this.isOperator('(')) {
      this.index += 1;
      const inner = this.expression(depth + 1);
      const closing = this.peek();
      if (!this.isOperator(')')) {
        throw new FormulaError(`A “)” is missing at position ${closing.position}.`, closing.position);
      }
      this.index += 1;
      return inner;
    }
    if (token.kind === 'number') {
      this.index += 1;
      return { type: 'number', value: token.value };
    }
    if (token.kind === 'name') {
      if (!(REPORT_METRICS as readonly string[]).includes(token.name)) {
        throw new FormulaError(
          `Unknown figure “${token.name}” at position ${token.position}; use ${REPORT_METRICS.join(', ')}.`,
          token.position,
        );
      }
      this.index += 1;
      return { type: 'figure', name: token.name as ReportMetric };
    }
    throw this.unexpected(token);
  }
}

/** Parses a formula; a mistake is named with its 1-based position. */
export function parseFormula(text: string): FormulaResult {
  if (text.trim() === '') return { ok: false, message: 'Enter a formula at position 1.', position: 1 };
  if (text.length > CUSTOM_METRIC_FORMULA_MAX) {
    const position = CUSTOM_METRIC_FORMULA_MAX + 1;
    return {
      ok: false,
      message: `Use at most ${CUSTOM_METRIC_FORMULA_MAX} characters; the formula is too long at position ${position}.`,
      position,
    };
  }
  try {
    return { ok: true, ast: new Parser(tokenize(text)).parse() };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
}

function evaluate(node: FormulaNode, figures: Partial<Record<string, number>>): number {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'figure':
      return Number(figures[node.name] ?? 0);
    case 'negate':
      return -evaluate(node.operand, figures);
    case 'binary': {
      const left = evaluate(node.left, figures);
      const right = evaluate(node.right, figures);
      if (node.operator === '+') return left + right;
      if (node.operator === '-') return left - right;
      if (node.operator === '*') return left * right;
      return right === 0 ? 0 : left / right;
    }
  }
}

/** The formula's value for a row's figures: finite, rounded to 6 decimals (anything else is 0). */
export function evaluateFormula(ast: FormulaNode, figures: Partial<Record<string, number>>): number {
  const value = evaluate(ast, figures);
  if (!Number.isFinite(value)) return 0;
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** The figures a formula reads. */
export function formulaFigures(ast: FormulaNode): Set<ReportMetric> {
  const names = new Set<ReportMetric>();
  const walk = (node: FormulaNode): void => {
    if (node.type === 'figure') names.add(node.name);
    else if (node.type === 'negate') walk(node.operand);
    else if (node.type === 'binary') {
      walk(node.left);
      walk(node.right);
    }
  };
  walk(ast);
  return names;
}

/** A formula that reads a money figure is money itself. */
export function formulaUsesMoney(ast: FormulaNode): boolean {
  return [...formulaFigures(ast)].some((name) => isMoneyMetric(name));
}

export function isCustomMetricKey(name: string): boolean {
  return CUSTOM_METRIC_KEY.test(name);
}

/** A key from a name: `RPM (x1000)` → `cm_rpm_x1000`. */
export function customMetricKeyOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 36)
    .replace(/_+$/g, '');
  return `cm_${slug || 'metric'}`;
}

/** A custom metric as reports compute it. */
export interface CustomMetricDefinition {
  key: string;
  formula: string;
}

/** The form of `POST` and `PUT /api/report-metrics`. */
export const ZCustomMetricForm = z
  .object({
    name: z.string().trim().min(1, 'Enter a name.').max(CUSTOM_METRIC_NAME_MAX),
    formula: z.string().max(CUSTOM_METRIC_FORMULA_MAX * 2),
  })
  .superRefine((form, context) => {
    const parsed = parseFormula(form.formula);
    if (!parsed.ok) context.addIssue({ code: 'custom', path: ['formula'], message: parsed.message });
  });
export type TCustomMetricForm = z.infer<typeof ZCustomMetricForm>;
