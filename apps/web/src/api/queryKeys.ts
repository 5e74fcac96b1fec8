import type { ResourceDefinition } from '@switchyard/domain';

/** Every query of one resource starts with `['resources', name]`, so one invalidation refreshes them all. */
export const resourceKeys = {
  all: (definition: ResourceDefinition) => ['resources', definition.name] as const,
  list: (definition: ResourceDefinition, params: object) => ['resources', definition.name, 'list', params] as const,
  record: (definition: ResourceDefinition, id: string | number | undefined) =>
    ['resources', definition.name, 'record', id === undefined ? undefined : String(id)] as const,
  lookup: (definition: ResourceDefinition) => ['lookups', definition.name] as const,
};

/** Reference data of §7.4 (currency, default email weights, timezone locations) sits beside the lookups. */
export const referenceKeys = {
  list: (path: string) => ['lookups', 'reference', path] as const,
};

/** The currency rates administrators edit; workspaces' currency choices read them too. */
export const currencyRateKeys = {
  all: ['currency-rates'] as const,
};

/** The server-wide bot protection settings (the datacenter networks). */
export const botProtectionKeys = {
  all: ['bot-protection'] as const,
};

/** The SQLite backups kept in the data directory. */
export const backupKeys = {
  all: ['backups'] as const,
};
