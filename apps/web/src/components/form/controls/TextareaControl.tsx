import { Textarea } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTextField } from '../useTrimmedText';

/** A multi-line text input of `rows` lines; whitespace is trimmed as typed (§2.6). */
export function TextareaControl(props: FormControlProps) {
  return <Textarea {...useTextField(props)} rows={props.element.rows ?? 3} {...props.element.input} />;
}
