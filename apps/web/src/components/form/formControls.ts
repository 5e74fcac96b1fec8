import type { ComponentType } from 'react';
import { CopyTextControl } from './controls/CopyTextControl';
import { HiddenControl } from './controls/HiddenControl';
import { InputControl } from './controls/InputControl';
import { NumberControl } from './controls/NumberControl';
import { PasswordControl } from './controls/PasswordControl';
import { SelectControl } from './controls/SelectControl';
import { SwitchControl } from './controls/SwitchControl';
import { TextareaControl } from './controls/TextareaControl';
import type { FormControlProps } from './types';

/**
 * The control of each element kind (§3.2). A new kind (text-html-editor, condition-builder, a repeater…)
 * is one component file plus one line here.
 */
export const FORM_CONTROLS: Record<string, ComponentType<FormControlProps>> = {
  input: InputControl,
  password: PasswordControl,
  select: SelectControl,
  switch: SwitchControl,
  textarea: TextareaControl,
  number: NumberControl,
  hidden: HiddenControl,
  'copy-text': CopyTextControl,
};

/** Kinds that show no "Looks good!" after a submit: nothing there for the operator to get wrong. */
export const WITHOUT_SUCCESS_TEXT = new Set(['hidden', 'switch', 'copy-text']);
