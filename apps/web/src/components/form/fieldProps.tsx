import type { FormControlProps } from './types';

/** What Mantine's input wrapper shows around a control: its label, help, error and required mark. */
export function wrapperProps({ label, description, error, required }: FormControlProps) {
  return { label, description, error, required };
}

/**
 * What a control hands the Mantine input it renders, besides its value: the element's name, the translated
 * texts and its state. A control that shows one of them otherwise passes its own after the spread.
 */
export function fieldProps(props: FormControlProps) {
  return {
    name: props.element.name,
    ...wrapperProps(props),
    placeholder: props.placeholder,
    disabled: props.disabled,
  };
}

/**
 * The same for Mantine's Switch, which draws no required mark: the label carries it, and `required` stays
 * off the checkbox, where the browser would read it as "must be on".
 */
export function switchProps({ element, label, description, error, required, disabled }: FormControlProps) {
  return {
    name: element.name,
    label: required ? (
      <>
        {label}
        <span aria-hidden> *</span>
      </>
    ) : (
      label
    ),
    description,
    error,
    disabled,
  };
}
