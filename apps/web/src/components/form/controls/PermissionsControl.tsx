import { PermissionChecklist } from '../../permissions/PermissionChecklist';
import type { FormControlProps } from '../types';

/** `permissions`: §6's permission strings, chosen from labelled checkboxes rather than typed. */
export function PermissionsControl({ value, onChange, label, description, error, disabled }: FormControlProps) {
  const held = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  return (
    <PermissionChecklist
      value={held}
      onChange={onChange}
      label={label}
      description={description}
      error={error}
      disabled={disabled}
    />
  );
}
