import { Switch } from '@mantine/core';
import type { FormControlProps } from '../types';

/** An on/off switch holding a boolean. */
export function SwitchControl({
  element,
  value,
  onChange,
  label,
  description,
  error,
  required,
  disabled,
}: FormControlProps) {
  return (
    <Switch
      name={element.name}
      label={
        required ? (
          <>
            {label}
            <span aria-hidden> *</span>
          </>
        ) : (
          label
        )
      }
      description={description}
      error={error}
      disabled={disabled}
      checked={Boolean(value)}
      onChange={(event) => onChange(event.currentTarget.checked)}
      {...element.input}
    />
  );
}
