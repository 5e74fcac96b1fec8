import { TextInput } from '@mantine/core';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../../copy/CopyValueButton';
import type { FormControlProps } from '../types';

/** A read-only value with a Copy button that turns the success colour for 1000 ms after copying (§2.6). */
export function CopyTextControl({ element, value, label, description, placeholder, error }: FormControlProps) {
  const text = value == null ? '' : String(value);
  return (
    <TextInput
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      value={text}
      readOnly
      rightSectionWidth={COPY_BUTTON_WIDTH}
      rightSection={<CopyValueButton value={text} />}
      {...element.input}
    />
  );
}
