import { TextInput, type TextInputProps } from '@mantine/core';
import { useTrimmedText } from '../form/useTrimmedText';

type TrimmedTextInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: string;
  onChange: (value: string) => void;
};

/** A text input of a row that trims whitespace as typed (§2.6), like the form's own inputs. */
export function TrimmedTextInput({ value, onChange, ...props }: TrimmedTextInputProps) {
  return <TextInput {...props} {...useTrimmedText(value, onChange)} />;
}
