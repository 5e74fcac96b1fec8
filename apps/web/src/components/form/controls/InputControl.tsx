import { TextInput } from '@mantine/core';
import type { FormControlProps } from '../types';
import { useTextField } from '../useTrimmedText';
import { useAppendSection } from './appendSection';

/** A one-line text input; whitespace is trimmed as typed (§2.6). */
export function InputControl(props: FormControlProps) {
  const field = useTextField(props);
  return <TextInput {...field} rightSection={useAppendSection(props.element)} {...props.element.input} />;
}
