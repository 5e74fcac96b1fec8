import { NumberInput } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useAppendSection } from './appendSection';

/** A number with `numberStep`, `numberMin` and `numberMax`; empty reads as null. */
export function NumberControl({
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
  return (
    <NumberInput
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      required={required}
      disabled={disabled}
      step={element.numberStep}
      min={element.numberMin}
      max={element.numberMax}
      rightSection={useAppendSection(element)}
      value={typeof value === 'number' || typeof value === 'string' ? value : ''}
      onChange={(next) => onChange(next === '' ? null : Number(next))}
      {...element.input}
    />
  );
}
