import type { ResourceReference } from '@switchyard/domain';

export interface ReferenceValue {
  /** The concrete field path, as `errors` names it: `path_groups.0.paths.1.offer_external_id`. */
  path: string;
  value: string | number;
}

/** Every non-empty value a reference field holds in a body; `*` in the field walks each item of a list. */
export function referenceValues(body: unknown, reference: ResourceReference): ReferenceValue[] {
  const found: ReferenceValue[] = [];
  const walk = (node: unknown, parts: readonly string[], path: readonly string[]): void => {
    if (parts.length === 0) {
      if ((typeof node === 'string' && node !== '') || typeof node === 'number') {
        found.push({ path: path.join('.'), value: node });
      }
      return;
    }
    const [part, ...rest] = parts as [string, ...string[]];
    if (part === '*') {
      if (!Array.isArray(node)) return;
      for (const [index, item] of node.entries()) walk(item, rest, [...path, String(index)]);
      return;
    }
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      walk((node as Record<string, unknown>)[part], rest, [...path, part]);
    }
  };
  walk(body, reference.field.split('.'), []);
  return found;
}
