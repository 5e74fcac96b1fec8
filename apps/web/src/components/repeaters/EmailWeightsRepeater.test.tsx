import { DEFAULT_EMAIL_WEIGHTS, ZOfferForm } from '@switchyard/domain';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { referenceKeys } from '../../api/queryKeys';
import { EmailWeightsRepeater } from './EmailWeightsRepeater';
import { EmailWeightsRepeaterControl } from './EmailWeightsRepeaterControl';
import { renderControl } from './renderControl';

describe('email-weights-repeater', () => {
  it('uses the defaults while empty and reveals them on "Customize Email Weights"', () => {
    const view = renderControl(EmailWeightsRepeater, {}, { element: { name: 'email_weights' } });
    expect(screen.getByText('The default email weights are used.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Weight of Gmail' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Customize Email Weights' }));
    const gmail = screen.getByRole('textbox', { name: 'Weight of Gmail' }) as HTMLInputElement;
    expect(gmail.value).toBe('100');
    expect(screen.getAllByRole('textbox')).toHaveLength(DEFAULT_EMAIL_WEIGHTS.length);
    expect(view.values()).toEqual([]);

    fireEvent.change(gmail, { target: { value: '40' } });
    const stored = view.last() as Record<string, number>;
    expect(stored.gmail).toBe(40);
    expect(Object.keys(stored)).toEqual(DEFAULT_EMAIL_WEIGHTS.map((entry) => entry.key));
    expect(ZOfferForm.shape.email_weights.safeParse(stored).success).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Use default weights' }));
    expect(view.last()).toEqual({});
    expect(screen.getByRole('button', { name: 'Customize Email Weights' })).toBeVisible();
  });

  it('shows stored weights with read-only keys', () => {
    renderControl(EmailWeightsRepeater, { gmail: 5, custom_isp: 7 });
    expect((screen.getByRole('textbox', { name: 'Weight of Gmail' }) as HTMLInputElement).value).toBe('5');
    expect((screen.getByRole('textbox', { name: 'Weight of Yahoo Mail' }) as HTMLInputElement).value).toBe('100');
    expect((screen.getByRole('textbox', { name: 'Weight of custom_isp' }) as HTMLInputElement).value).toBe('7');
    expect(screen.getByRole('textbox', { name: 'Weight of Other providers' })).toHaveValue('100');
  });

  it('takes the defaults from the default-email-weights list when it has loaded', () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(referenceKeys.list('default-email-weights'), [
      { key: 'gmail', name: 'Gmail', weight: 70 },
      { key: 'other', name: 'Other providers', weight: 30 },
    ]);
    const view = renderControl(EmailWeightsRepeaterControl, {}, { queryClient });
    fireEvent.click(screen.getByRole('button', { name: 'Customize Email Weights' }));
    expect(screen.getAllByRole('textbox')).toHaveLength(2);
    fireEvent.change(screen.getByRole('textbox', { name: 'Weight of Other providers' }), { target: { value: '5' } });
    expect(view.last()).toEqual({ gmail: 70, other: 5 });
  });

  it("shows a message on a provider's weight under that weight", () => {
    renderControl(EmailWeightsRepeater, { gmail: 5 }, { fieldErrors: { gmail: 'Too small' } });
    expect(screen.getAllByText('Too small')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: 'Weight of Gmail' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Weight of Yahoo Mail' }).getAttribute('aria-invalid')).not.toBe('true');
  });
});
