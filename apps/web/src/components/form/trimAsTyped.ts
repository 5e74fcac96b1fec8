import type { FocusEvent } from 'react';
import { trimTyped } from './useTrimmedText';

interface TextInputProps {
  value?: unknown;
  onChange: (value: unknown) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
}

/**
 * A Mantine form field's props, trimming as typed like the generic forms (§2.6): no leading
 * whitespace is ever shown, and a trailing one goes when the field is left, not only when it is sent.
 */
export function trimAsTyped<T extends TextInputProps>(props: T): T {
  return {
    ...props,
    onChange: (event: unknown) => {
      const typed =
        event && typeof event === 'object' && 'currentTarget' in event
          ? (event as { currentTarget: HTMLInputElement }).currentTarget.value
          : String(event ?? '');
      props.onChange(trimTyped(typed));
    },
    onBlur: (event: FocusEvent<HTMLInputElement>) => {
      const value = String(props.value ?? '');
      if (value.trim() !== value) props.onChange(value.trim());
      props.onBlur?.(event);
    },
  };
}
