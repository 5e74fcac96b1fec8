import { PasswordInput } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTextField } from '../useTrimmedText';

/** A password input with a show/hide toggle; whitespace is trimmed as typed (§2.6). */
export function PasswordControl(props: FormControlProps) {
  return <PasswordInput {...useTextField(props)} autoComplete="new-password" {...props.element.input} />;
}
