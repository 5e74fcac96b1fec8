import { ALL_CONDITION_TEXT, getResource } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { initialValues } from '../../components/form/useResourceForm';
import { validateForm } from '../../components/form/validateForm';
import { keptElement, nameElement } from './formElements';

const minValue = (min: number) => `at least ${min}`;

describe('kept elements', () => {
  it('send back the path groups a flow was loaded with', () => {
    const flows = getResource('flows');
    const elements = [nameElement(), keptElement('path_groups', [])];
    const pathGroups = [
      {
        id: 'g1',
        name: 'DE',
        enabled: true,
        priority: 0,
        condition: ALL_CONDITION_TEXT,
        flow_external_id: 'f1',
        // As the server answers a group saved without tuning its weights.
        optimize: 'off',
        optimize_metric: 'cr',
        optimize_target: 'paths',
        optimize_floor: 5,
        optimize_min_clicks: 100,
        optimize_window_days: 7,
        paths: [
          {
            id: 'p1',
            name: '',
            enabled: true,
            weight: 100,
            daily_cap: 0,
            postback_daily_cap: 0,
            subaff: '',
            offer_external_id: 'o1',
          },
        ],
      },
    ];
    const values = initialValues(elements, { external_id: 'f1', name: 'Flow', path_groups: pathGroups });
    const { errors, body } = validateForm(elements, values, flows.form, minValue);
    expect(errors).toEqual({});
    expect(body).toEqual({ name: 'Flow', path_groups: pathGroups });
  });

  it('start from their create value on a new record', () => {
    const segments = getResource('segments');
    const elements = [nameElement(), keptElement('condition', ALL_CONDITION_TEXT)];
    const values = { ...initialValues(elements), name: 'EU' };
    expect(validateForm(elements, values, segments.form, minValue).body).toEqual({
      name: 'EU',
      condition: ALL_CONDITION_TEXT,
    });
  });
});
