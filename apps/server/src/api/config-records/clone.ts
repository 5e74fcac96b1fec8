// "the same campaign for another geo" is a daily task. `POST /api/{resource}/{id}/clone` copies
// a campaign, flow, offer, lander or segment (both sides): a new external id, "(copy)" after the name,
// new row ids (so the copy's paths count their own caps and report apart), the same references. A
// campaign cloned `with_flow` gets a copy of its flow too.
// Which resources can be cloned is the domain's CLONABLE (the lists' Clone action reads it too).

const NAME_MAX = 255;
const COPY = ' (copy)';

/** `name (copy)`, the name shortened when it would not fit. */
export function copyName(name: string): string {
  return `${name.slice(0, NAME_MAX - COPY.length)}${COPY}`;
}

/** Row lists whose items carry an `id` of their own in a record's body (nested as in the forms). */
const ROW_LISTS = ['path_groups', 'paths', 'offers', 'landers', 'payout_rule_sets', 'rules'];

/** `body` with every row's `id` left out, at any depth of the row lists: the form gives each a new one. */
export function withoutRowIds(body: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown, isRow: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => strip(item, isRow));
    if (typeof value !== 'object' || value === null) return value;
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (isRow && key === 'id') continue;
      result[key] = ROW_LISTS.includes(key) ? strip(child, true) : child;
    }
    return result;
  };
  return strip(body, false) as Record<string, unknown>;
}
