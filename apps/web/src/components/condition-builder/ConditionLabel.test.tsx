import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ControlProviders } from '../form/controls/renderControl';
import { ConditionLabel } from './ConditionLabel';

const EXAMPLE =
  '{"type":"AndCondition","data":{"Conditions":[{"type":"InCondition","data":{"Var":"countryCode","Operation":"IN","Values":["US","CA"]}},{"type":"NotCondition","data":{"Condition":{"type":"AndCondition","data":{"Conditions":[{"type":"InCondition","data":{"Var":"device","Operation":"IN","Values":["mobile"]}}]}}}}]}}';

describe('ConditionLabel', () => {
  it.each([
    ['{"type":"AllCondition"}', 'Everyone'],
    ['', 'Everyone'],
    [EXAMPLE, 'Country is US or CA and not (Device is mobile)'],
  ])('reads %j as %j', (value, text) => {
    render(
      <ControlProviders>
        <ConditionLabel value={value} />
      </ControlProviders>,
    );
    expect(screen.getByText(text)).toBeVisible();
  });
});
