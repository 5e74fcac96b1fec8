import { ZOfferForm } from '@switchyard/domain';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OfferVarsRepeater } from './OfferVarsRepeater';
import { renderControl } from './renderControl';

const keyInputs = () => screen.getAllByRole('textbox', { name: 'Key' });
const valueInputs = () => screen.getAllByRole('textbox', { name: 'Value' });

describe('offer-vars-repeater', () => {
  it('drops pairs with an empty key or value from the stored object but keeps them on screen', () => {
    const view = renderControl(OfferVarsRepeater, {}, { element: { name: 'vars' } });
    const add = screen.getByRole('button', { name: 'Add var' });
    fireEvent.click(add);
    fireEvent.click(add);
    fireEvent.click(add);
    expect(view.last()).toEqual({});

    fireEvent.change(keyInputs()[0] as HTMLElement, { target: { value: 'geo' } });
    fireEvent.change(valueInputs()[0] as HTMLElement, { target: { value: 'de' } });
    fireEvent.change(keyInputs()[1] as HTMLElement, { target: { value: 'subaff' } });
    fireEvent.change(valueInputs()[2] as HTMLElement, { target: { value: 'orphan' } });

    expect(view.last()).toEqual({ geo: 'de' });
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(keyInputs().map((input) => (input as HTMLInputElement).value)).toEqual(['geo', 'subaff', '']);
  });

  it('shows a stored object as rows and stores edits as an object the offer form accepts', () => {
    const view = renderControl(OfferVarsRepeater, { geo: 'de', source: 'fb' });
    expect(keyInputs().map((input) => (input as HTMLInputElement).value)).toEqual(['geo', 'source']);
    fireEvent.click(screen.getByRole('button', { name: 'Delete row 1' }));
    expect(view.last()).toEqual({ source: 'fb' });
    const parsed = ZOfferForm.shape.vars.safeParse(view.last());
    expect(parsed.success && parsed.data).toEqual({ source: 'fb' });
  });

  it('warns when a key is used twice', () => {
    renderControl(OfferVarsRepeater, { geo: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    expect(screen.getAllByText('This key appears more than once; only the last row is kept.')).toHaveLength(2);
  });

  it('shows a message on a stored key under the Value of the row that key comes from', () => {
    renderControl(OfferVarsRepeater, { geo: 'de', source: 'fb' }, { fieldErrors: { geo: 'Not allowed' } });
    const invalid = () => valueInputs().map((input) => input.getAttribute('aria-invalid') === 'true');
    expect(invalid()).toEqual([true, false]);
    // A duplicate of the key is the row that is stored, so the message moves to it.
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    expect(invalid()).toEqual([false, false, true]);
    expect(screen.getAllByText('Not allowed')).toHaveLength(1);
  });
});
