import { Input } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FormControlProps } from '../form/types';

type RepeaterFieldProps = Pick<FormControlProps, 'label' | 'description' | 'error' | 'required'> & {
  children: ReactNode;
};

/** The element's label, help and error around a repeater; the label is no `<label>`, as it names many inputs. */
export function RepeaterField({ label, description, error, required, children }: RepeaterFieldProps) {
  return (
    <Input.Wrapper labelElement="div" label={label} description={description} error={error} required={required}>
      <div style={{ marginBlockStart: label || description ? 'var(--mantine-spacing-xs)' : undefined }}>{children}</div>
    </Input.Wrapper>
  );
}
