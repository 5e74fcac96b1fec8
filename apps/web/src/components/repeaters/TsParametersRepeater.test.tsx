import { renumberParameters, type TTrafficSourceParameter, ZTrafficSourceForm } from '@switchyard/domain';
import { act, fireEvent, renderHook, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { renderControl } from './renderControl';
import { TsParametersRepeater } from './TsParametersRepeater';
import { useRepeaterRows } from './useRepeaterRows';

const parameter = (name: string, position: number): TTrafficSourceParameter => ({
  name,
  ts_parameter: `p_${name}`,
  ts_token: `{${name}}`,
  internal_token: `var${position}`,
  enabled: true,
});

const element = { name: 'parameters' };
const tokens = () =>
  screen.getAllByTestId('parameters-internal-token').map((input) => (input as HTMLInputElement).value);

describe('ts-parameters-repeater', () => {
  it('renumbers the internal tokens after deleting the middle row of three', () => {
    const view = renderControl(TsParametersRepeater, [parameter('a', 1), parameter('b', 2), parameter('c', 3)], {
      element,
    });
    expect(tokens()).toEqual(['var1', 'var2', 'var3']);

    fireEvent.click(screen.getByRole('button', { name: 'Delete row 2' }));

    expect(tokens()).toEqual(['var1', 'var2']);
    expect(view.last()).toEqual([parameter('a', 1), { ...parameter('c', 2) }]);
    // The stored value is exactly what the traffic-source form accepts.
    expect(ZTrafficSourceForm.safeParse({ name: 'Source', parameters: view.last() }).success).toBe(true);
  });

  it('adds rows numbered by position and drops the Add button at 10', () => {
    const nine = Array.from({ length: 9 }, (_, index) => parameter(`n${index}`, index + 1));
    const view = renderControl(TsParametersRepeater, nine, { element });

    fireEvent.click(screen.getByRole('button', { name: 'Add parameter' }));

    expect(view.last()).toHaveLength(10);
    expect((view.last() as TTrafficSourceParameter[])[9]).toEqual({
      name: '',
      ts_parameter: '',
      ts_token: '',
      internal_token: 'var10',
      enabled: true,
    });
    expect(screen.queryByRole('button', { name: 'Add parameter' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Duplicate row/ })).toBeNull();
    expect(screen.getByText('At most 10 parameters.')).toBeVisible();
  });

  it('duplicates a parameter under the next token', () => {
    const view = renderControl(TsParametersRepeater, [parameter('a', 1), parameter('b', 2)], { element });
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    expect(view.last()).toEqual([parameter('a', 1), parameter('b', 2), { ...parameter('a', 3) }]);
  });

  it('renumbers after a reorder', () => {
    let rows = [parameter('a', 1), parameter('b', 2), parameter('c', 3)];
    const { result } = renderHook(() =>
      useRepeaterRows({
        rows,
        onChange: (next) => (rows = next),
        createRow: () => parameter('', 0),
        normalize: renumberParameters,
      }),
    );
    act(() => result.current.move(2, 0));
    expect(rows).toEqual([parameter('c', 1), parameter('a', 2), parameter('b', 3)]);
  });

  it('edits a row in place', () => {
    const view = renderControl(TsParametersRepeater, [parameter('a', 1)], { element });
    fireEvent.change(screen.getByLabelText(/^Parameter/), { target: { value: ' sub_id ' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
    expect(view.last()).toEqual([{ ...parameter('a', 1), ts_parameter: 'sub_id', enabled: false }]);
  });

  it("shows a message inside the value under its row's input, not under the Add button", () => {
    renderControl(TsParametersRepeater, [parameter('a', 1), { ...parameter('b', 2), ts_parameter: '' }], {
      element,
      fieldErrors: { '1.ts_parameter': 'This field is required', '0.name': 'This name is taken' },
    });
    const rows = screen.getAllByRole('listitem');
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(within(rows[1] as HTMLElement).getByText('This field is required')).toBeVisible();
    expect(
      within(rows[1] as HTMLElement)
        .getByLabelText(/^Parameter/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(
      within(rows[0] as HTMLElement)
        .getByLabelText(/^Name/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(
      within(rows[0] as HTMLElement)
        .getByLabelText(/^Parameter/)
        .getAttribute('aria-invalid'),
    ).not.toBe('true');
  });

  it('keeps the element error for itself and sums up only what no row shows', () => {
    renderControl(TsParametersRepeater, [parameter('a', 1)], {
      element,
      error: 'At most 10 parameters',
      fieldErrors: { '0.name': 'This name is taken', '4.name': 'Row five is wrong' },
    });
    expect(screen.getAllByText('This name is taken')).toHaveLength(1);
    expect(screen.getByText('At most 10 parameters Row five is wrong')).toBeVisible();
  });

  it('shows parameters and macros left to right in Arabic too', async () => {
    await act(() => i18n.changeLanguage('ar'));
    try {
      renderControl(TsParametersRepeater, [{ ...parameter('a', 1), ts_token: `\${SUBID}` }], { element });
      const t = i18n.getFixedT('ar');
      expect(screen.getByRole('textbox', { name: t('controls:repeaters.tsParameters.tsToken') })).toHaveStyle({
        direction: 'ltr',
      });
      expect(
        screen.getByRole('textbox', { name: new RegExp(`^${t('controls:repeaters.tsParameters.tsParameter')}`) }),
      ).toHaveStyle({ direction: 'ltr' });
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
