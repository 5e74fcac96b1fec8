import { trackerLanders } from '@switchyard/domain';
import { useLookup } from '../../../api/useLookup';
import type { FormControlProps } from '../types';
import { SelectControl } from './SelectControl';

/**
 * The lander select of `select-tracker-lander`: every tracker lander (limit 0). Value: the lander's
 * external_id (string), null when none, or string[] with `multiple`.
 */
export function SelectTrackerLanderControl(props: FormControlProps) {
  const landers = useLookup(trackerLanders);
  // A long name cut off in the field reads whole on hover.
  const title = landers.find((lander) => lander.value === props.value)?.label;
  return (
    <SelectControl
      {...props}
      element={{ ...props.element, options: landers, input: { title, ...props.element.input } }}
    />
  );
}
