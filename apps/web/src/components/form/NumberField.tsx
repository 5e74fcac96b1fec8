import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useState } from 'react';

type Typed = string | number;

/** What a number field hands on: a number, null when empty, or text that reads as no number yet (`-`). */
export type NumberFieldValue = number | null | string;

/** What Mantine's text reads as: `1.` is 1, a lone `-` stays text. */
function readTyped(typed: Typed): NumberFieldValue {
  if (typeof typed === 'number') return typed;
  if (typed.trim() === '') return null;
  const number = Number(typed);
  return Number.isFinite(number) ? number : typed;
}

const shownOf = (value: unknown): Typed => (typeof value === 'number' || typeof value === 'string' ? value : '');

export interface NumberFieldProps extends Omit<NumberInputProps, 'value' | 'onChange' | 'clampBehavior'> {
  value: unknown;
  onChange: (value: NumberFieldValue) => void;
}

/**
 * Every number field of the dashboard: nothing typed is changed behind the operator's back.
 * Mantine hands text on its way to a number (`-`, `1.`) as a string; turned into a number at once, a minus
 * sign vanished and the `2` typed next stood alone (a payout of -2 saved as 2). The field keeps what was
 * typed while it reads as the value it holds, and nothing is clamped to `min` on blur: a value under the
 * minimum stays for validation to name (§5.1).
 */
export function NumberField({ value, onChange, ...props }: NumberFieldProps) {
  const [typed, setTyped] = useState<{ text: Typed; valueBefore: unknown }>(() => ({
    text: shownOf(value),
    valueBefore: value,
  }));
  const read = readTyped(typed.text);
  // Text that is no number yet shows while the value is still the one it was typed over (a parent may
  // keep its number instead of taking the text); a value set from elsewhere wins.
  const current = Object.is(read, value ?? null) || (typeof read === 'string' && Object.is(value, typed.valueBefore));
  return (
    <NumberInput
      {...props}
      clampBehavior="none"
      value={current ? typed.text : shownOf(value)}
      onChange={(next) => {
        setTyped({ text: next, valueBefore: value });
        onChange(readTyped(next));
      }}
    />
  );
}
