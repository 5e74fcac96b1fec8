import { PasswordInput } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTrimmedText } from '../useTrimmedText';

/** A password input with a show/hide toggle; whitespace is trimmed as typed (§2.6). */
export function PasswordControl({
  element,
  value,
  onChange,
  label,
  description,
  placeholder,
  error,
  required,
  disabled,
}: FormControlProps) {
  const text = useTrimmedText(value, onChange);
  return (
    <PasswordInput
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      required={required}
      disabled={disabled}
      autoComplete="new-password"
      {...text}
      {...element.input}
    />
  );
}
