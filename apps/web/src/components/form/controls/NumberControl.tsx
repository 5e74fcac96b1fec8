import { NumberInput } from '@mantine/core';
import { useState } from 'react';
import type { FormControlProps } from '../types';
import { useAppendSection } from './appendSection';

type Typed = string | number;

/**
 * What the form holds for what Mantine hands over: a number, null when empty, and text that reads as no
 * number yet (a lone `-`) as it is, so the form's validation names it instead of it vanishing.
 */
function formValueOf(typed: Typed): unknown {
  if (typeof typed === 'number') return typed;
  if (typed.trim() === '') return null;
  const number = Number(typed);
  return Number.isFinite(number) ? number : typed;
}

const shownOf = (value: unknown): Typed => (typeof value === 'number' || typeof value === 'string' ? value : '');

/**
 * A number with `numberStep`, `numberMin` and `numberMax`; empty reads as null. Nothing typed is changed
 * behind the operator's back (issue 26): a value under `numberMin` stays as typed for §5.1's validation
 * to name, instead of being clamped on blur, and text on its way to a number (`-`, `1.`) stays in the
 * field while the form holds what it reads as.
 */
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
  const [typed, setTyped] = useState<Typed>(() => shownOf(value));
  // The field shows what was typed while it still reads as the form's value; a value set from elsewhere wins.
  const shown = Object.is(formValueOf(typed), value ?? null) ? typed : shownOf(value);
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
      clampBehavior="none"
      rightSection={useAppendSection(element)}
      value={shown}
      onChange={(next) => {
        setTyped(next);
        onChange(formValueOf(next));
      }}
      {...element.input}
    />
  );
}
