import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderControl } from '../form/controls/renderControl';
import { FORM_CONTROLS } from '../form/formControls';
import { ConditionBuilderControl } from './ConditionBuilderControl';

describe('condition-builder element', () => {
  it('is registered and stores the pruned tree as JSON text', () => {
    expect(FORM_CONTROLS['condition-builder']).toBe(ConditionBuilderControl);
    const { onChange } = renderControl(ConditionBuilderControl, {
      name: 'condition',
      type: 'condition-builder',
      label: 'Condition',
      value:
        '{"type":"AndCondition","data":{"Conditions":[{"type":"InCondition","data":{"Var":"age","Operation":"IN","Values":[]}},{"type":"CompareIntCondition","data":{"Var":"age","Values":{"Value":18,"Comparator":">="}}}]}}',
      input: { flowType: 'tracker', availableRules: ['age'] },
    });
    expect(screen.getByText('Condition')).toBeVisible();
    const top = screen.getByRole('group', { name: 'Condition group, level 1' });
    fireEvent.click(within(top).getByRole('button', { name: 'Or' }));
    expect(onChange).toHaveBeenLastCalledWith(
      '{"type":"OrCondition","data":{"Conditions":[{"type":"CompareIntCondition","data":{"Var":"age","Values":{"Value":18,"Comparator":">="}}}]}}',
    );
  });
});
