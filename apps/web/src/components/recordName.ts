import type { ResourceDefinition } from '@switchyard/domain';

/** What a record is called in titles and confirmations: its name (the lookup label), or '' if it has none. */
export function recordName(definition: ResourceDefinition, record: Record<string, unknown> | undefined): string {
  const name = record?.name ?? record?.[definition.lookup.label];
  return typeof name === 'string' || typeof name === 'number' ? String(name) : '';
}
