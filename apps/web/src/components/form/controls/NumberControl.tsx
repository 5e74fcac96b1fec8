import { fieldProps } from '../fieldProps';
import { NumberField } from '../NumberField';
import type { FormControlProps } from '../types';
import { useAppendSection } from './appendSection';

/**
 * A number with `numberStep`, `numberMin` and `numberMax`; empty reads as null, and text that is no number
 * yet (a lone `-`) reaches the form as it is, for its validation to name. A value under `numberMin` is kept
 * as typed and named by §5.1's min_value rule, never clamped in silence.
 */
export function NumberControl(props: FormControlProps) {
  const { element, value, onChange } = props;
  return (
    <NumberField
      {...fieldProps(props)}
      step={element.numberStep}
      min={element.numberMin}
      max={element.numberMax}
      rightSection={useAppendSection(element)}
      value={value}
      onChange={onChange}
      {...element.input}
    />
  );
}
