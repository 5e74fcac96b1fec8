import { getResource } from '@switchyard/domain';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { moneyElement } from '../../../resources/screens/formElements';
import { ResourceForm } from '../ResourceForm';
import { ControlProviders } from './renderControl';

function renderPayoutForm() {
  render(
    <MemoryRouter>
      <ControlProviders>
        <ResourceForm
          definition={getResource('offers')}
          elements={[moneyElement('payout', 'resources:fields.payout', true)]}
        />
      </ControlProviders>
    </MemoryRouter>,
  );
  return screen.getByRole('textbox') as HTMLInputElement;
}

function type(input: HTMLInputElement, text: string) {
  act(() => input.focus());
  fireEvent.change(input, { target: { value: text } });
}

describe('NumberControl', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    ['en', 'Save', 'The value must be at least 0'],
    ['ar', 'حفظ', 'يجب ألا تقل القيمة عن 0'],
  ])(
    'keeps a payout of -2 as typed and names §5.1 minimum 0 on save instead of saving it (%s)',
    async (language, save, message) => {
      await act(() => i18n.changeLanguage(language));
      const fetchMock = vi.fn();
      vi.stubGlobal('fetch', fetchMock);
      const input = renderPayoutForm();

      // Typed as a person does: the minus sign first, then the digit.
      type(input, '-');
      expect(input.value).toBe('-');
      type(input, '-2');
      fireEvent.blur(input);
      expect(input.value).toBe('-2');

      fireEvent.click(screen.getByRole('button', { name: save }));
      expect(screen.getByText(message)).toBeVisible();
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('keeps a decimal point while the decimals are being typed', () => {
    const input = renderPayoutForm();
    type(input, '1.');
    expect(input.value).toBe('1.');
    type(input, '1.5');
    expect(input.value).toBe('1.5');
  });
});
