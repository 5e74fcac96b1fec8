import { allPermissions, MONEY_PERMISSION } from '@switchyard/domain';
import type { TFunction } from 'i18next';

/**
 * Every permission a user may be given, as options of a select: the permission string itself (§6), and
 * for the money permission (issue 19) what it shows, since its name alone does not say it is about
 * columns rather than an action.
 */
export function permissionOptions(t: TFunction): { value: string; label: string }[] {
  return allPermissions().map((permission) => ({
    value: permission,
    label: permission === MONEY_PERMISSION ? `${permission} · ${t('resources:users.seeMoney')}` : permission,
  }));
}
