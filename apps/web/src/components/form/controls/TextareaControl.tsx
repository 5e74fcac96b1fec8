import { Textarea } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTrimmedText } from '../useTrimmedText';

/** A multi-line text input of `rows` lines; whitespace is trimmed as typed (§2.6). */
export function TextareaControl({
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
    <Textarea
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      required={required}
      disabled={disabled}
      rows={element.rows ?? 3}
      {...text}
      {...element.input}
    />
  );
}
