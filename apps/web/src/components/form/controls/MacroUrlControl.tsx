import { TextInput } from '@mantine/core';
import { useRef } from 'react';
import { insertAt, MacroMenu } from '../MacroMenu';
import type { FormControlProps } from '../types';
import { useTextField } from '../useTrimmedText';

/**
 * `macro-url`: a URL that may carry macros (offer and lander URLs), trimmed as typed (§2.6), with the
 * list of macros under it; a chosen macro goes in at the cursor.
 */
export function MacroUrlControl(props: FormControlProps) {
  const field = useTextField(props);
  const input = useRef<HTMLInputElement>(null);
  const insert = (token: string) => {
    const at = input.current;
    props.onChange(insertAt(field.value, token, at?.selectionStart ?? null, at?.selectionEnd ?? null).trim());
    at?.focus();
  };
  return (
    <div>
      <TextInput ref={input} {...field} {...props.element.input} />
      <MacroMenu onInsert={insert} disabled={props.disabled} />
    </div>
  );
}
