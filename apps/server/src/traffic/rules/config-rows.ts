// The config rows routing is compiled from, grouped by kind and each body parsed once; a body its form
// refuses is recorded as a problem (shown with the campaign) and left out of routing.
import { ALL_CONDITION, type ConditionNode, parseConditionText } from '@switchyard/domain';
import type { z } from 'zod';

/** A `config_records` row as the compiler reads it. */
export interface ConfigRow {
  kind: string;
  external_id: string;
  name: string;
  body: string;
  status: string;
  workspace_id?: number | null;
}

/** Each side's config kinds: tracker campaigns take clicks, API campaigns leads. */
export const KINDS = {
  tracker: {
    campaign: 'tracker-campaigns',
    flow: 'tracker-flows',
    offer: 'tracker-offers',
    segment: 'tracker-segments',
  },
  api: { campaign: 'campaigns', flow: 'flows', offer: 'offers', segment: 'segments' },
} as const;

function parseBody(row: ConfigRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function conditionTree(text: string): ConditionNode {
  return parseConditionText(text).tree ?? ALL_CONDITION;
}

/** A row of a kind as its form read it, with the body it was read from. */
export interface ParsedRow<T> {
  row: ConfigRow;
  form: T;
  body: Record<string, unknown>;
}

export class ConfigRows {
  /** `kind:external_id` → why the row was left out. */
  readonly problems = new Map<string, string>();
  private readonly byKind = new Map<string, { row: ConfigRow; body: Record<string, unknown> }[]>();

  constructor(rows: readonly ConfigRow[]) {
    for (const row of rows) {
      const list = this.byKind.get(row.kind) ?? [];
      list.push({ row, body: parseBody(row) });
      this.byKind.set(row.kind, list);
    }
  }

  /** Rows of a kind parsed with its form; a body the form refuses is reported and skipped. */
  parsed<T extends z.ZodType>(kind: string, form: T): ParsedRow<z.output<T>>[] {
    const result: ParsedRow<z.output<T>>[] = [];
    for (const { row, body } of this.byKind.get(kind) ?? []) {
      const outcome = form.safeParse({ ...body, name: row.name });
      if (outcome.success) result.push({ row, form: outcome.data, body });
      else this.problems.set(`${kind}:${row.external_id}`, outcome.error.issues[0]?.message ?? 'invalid');
    }
    return result;
  }
}
