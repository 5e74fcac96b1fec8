import { Switch } from '@mantine/core';
import { switchProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/** An on/off switch holding a boolean. */
export function SwitchControl(props: FormControlProps) {
  return (
    <Switch
      {...switchProps(props)}
      checked={Boolean(props.value)}
      onChange={(event) => props.onChange(event.currentTarget.checked)}
      {...props.element.input}
    />
  );
}
