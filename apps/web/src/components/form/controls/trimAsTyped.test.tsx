import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { trimAsTyped } from '../trimAsTyped';
import type { FormElement } from '../types';
import { InputControl } from './InputControl';
import { PasswordControl } from './PasswordControl';
import { ControlProviders, renderControl } from './renderControl';
import { TextareaControl } from './TextareaControl';

const element = (type: FormElement['type']): FormElement => ({ name: 'field', type, label: 'Field', value: '' });

describe('text trims as typed (§2.6)', () => {
  it.each([
    ['input', InputControl],
    ['textarea', TextareaControl],
    ['password', PasswordControl],
  ] as const)(
    'a %s never shows leading whitespace, keeps a space between words and stores the trimmed text',
    (type, Control) => {
      const { onChange } = renderControl(Control, element(type));
      const field = screen.getByLabelText('Field') as HTMLInputElement;
      fireEvent.change(field, { target: { value: '   summer' } });
      expect(field.value).toBe('summer');
      expect(onChange).toHaveBeenLastCalledWith('summer');
      fireEvent.change(field, { target: { value: 'summer ' } });
      expect(field.value).toBe('summer ');
      fireEvent.change(field, { target: { value: 'summer sale ' } });
      expect(onChange).toHaveBeenLastCalledWith('summer sale');
      fireEvent.blur(field);
      expect(field.value).toBe('summer sale');
    },
  );

  it('the account screens’ fields too, not only when sent', () => {
    function Harness() {
      const form = useForm({ initialValues: { name: '' } });
      return <TextInput label="Name" {...trimAsTyped(form.getInputProps('name'))} />;
    }
    render(
      <ControlProviders>
        <Harness />
      </ControlProviders>,
    );
    const field = screen.getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(field, { target: { value: '  Ada' } });
    expect(field.value).toBe('Ada');
    fireEvent.change(field, { target: { value: 'Ada Lovelace  ' } });
    expect(field.value).toBe('Ada Lovelace  ');
    fireEvent.blur(field);
    expect(field.value).toBe('Ada Lovelace');
  });
});
