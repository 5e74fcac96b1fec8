import { type ChangeEvent, useEffect, useState } from 'react';
import { fieldProps } from './fieldProps';
import type { FormControlProps } from './types';

/** What the field shows as typed: never leading whitespace; a trailing space may start the next word. */
export function trimTyped(typed: string): string {
  return typed.replace(/^\s+/, '');
}

/**
 * Text that trims whitespace as typed (§2.6) without fighting the user: the stored value is always
 * trimmed; the shown one drops leading whitespace at once and keeps a trailing space while
 * the next word is typed, until the field is left.
 */
export function useTrimmedText(stored: unknown, store: (value: string) => void) {
  const storedText = typeof stored === 'string' ? stored : stored == null ? '' : String(stored);
  const [shown, setShown] = useState(storedText);

  useEffect(() => {
    setShown((current) => (current.trim() === storedText ? current : storedText));
  }, [storedText]);

  return {
    value: shown,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const typed = trimTyped(event.currentTarget.value);
      setShown(typed);
      const trimmed = typed.trim();
      if (trimmed !== storedText) store(trimmed);
    },
    onBlur: () => setShown((current) => current.trim()),
  };
}

/**
 * What each typed-text control (input, password, textarea) hands its Mantine input: the field's name,
 * translated texts and state, and its text trimmed as typed.
 */
export function useTextField(props: FormControlProps) {
  const text = useTrimmedText(props.value, props.onChange);
  return { ...fieldProps(props), ...text };
}
