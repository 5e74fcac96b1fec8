import { DEFAULT_EMAIL_WEIGHTS } from '@switchyard/domain';
import { useMemo } from 'react';
import { useDefaultEmailWeights } from '../../api/useDefaultEmailWeights';
import type { FormControlProps } from '../form/types';
import { EmailWeightsRepeater } from './EmailWeightsRepeater';

/** The form control: defaults from §7.4 default-email-weights, the built-in list until they have loaded. */
export function EmailWeightsRepeaterControl(props: FormControlProps) {
  const loaded = useDefaultEmailWeights();
  const defaults = useMemo(
    () =>
      loaded.length > 0
        ? loaded.map((option) => ({ key: option.value, name: option.label, weight: option.weight }))
        : DEFAULT_EMAIL_WEIGHTS,
    [loaded],
  );
  return <EmailWeightsRepeater {...props} defaults={defaults} />;
}
