import { PERMISSION_CATALOGUE, ROOT_PERMISSION, SECTIONS, type Section } from '@switchyard/domain';
import type { TFunction } from 'i18next';

const isSection = (value: string | undefined): value is Section => SECTIONS.includes(value as Section);

/**
 * A permission string as the checklist labels it: "Everything (administrator)", "All of
 * Tracker", "Tracker · Campaigns: Update". A string this dashboard does not know shows as it is.
 */
export function permissionLabel(t: TFunction, permission: string): string {
  if (permission === ROOT_PERMISSION) return t('resources:permissions.root');
  const [section, resource, action, ...rest] = permission.split('/').slice(1);
  if (!isSection(section) || rest.length > 0) return permission;
  const sectionLabel = t(`resources:permissions.sections.${section}`);
  if (resource === undefined) return t('resources:permissions.sectionAll', { section: sectionLabel });
  const actions = (PERMISSION_CATALOGUE[section] as Record<string, readonly string[]>)[resource];
  if (!actions || (action !== undefined && !actions.includes(action))) return permission;
  return t('resources:permissions.checkbox', {
    section: sectionLabel,
    resource: t(`resources:permissions.resources.${resource}`),
    action: t(`resources:permissions.actions.${action ?? 'all'}`),
  });
}
