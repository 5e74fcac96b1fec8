import { TextInput } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTrimmedText } from '../useTrimmedText';
import { useAppendSection } from './appendSection';

/** A one-line text input; whitespace is trimmed as typed (§2.6). */
export function InputControl({
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
    <TextInput
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      required={required}
      disabled={disabled}
      rightSection={useAppendSection(element)}
      {...text}
      {...element.input}
    />
  );
}
