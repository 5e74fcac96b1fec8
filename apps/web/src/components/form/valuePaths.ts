/**
 * Element names may point inside an object (`postback_params.click_id`): the form keeps one flat value per
 * element, reads it from the record at that path and nests it again for the body.
 */
export function valueAtPath(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** `{ 'a.b': 1, c: 2 }` → `{ a: { b: 1 }, c: 2 }`. */
export function nestValues(values: Record<string, unknown>): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.');
    const last = parts.pop() as string;
    let target = nested;
    for (const part of parts) {
      const next = target[part];
      target[part] = next !== null && typeof next === 'object' ? next : {};
      target = target[part] as Record<string, unknown>;
    }
    target[last] = value;
  }
  return nested;
}
