import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormElement } from '../types';
import { renderControl } from './renderControl';
import { TagsControl } from './TagsControl';

const element: FormElement = {
  name: 'tags',
  type: 'tags',
  label: 'Tags',
  options: [{ value: 'Summer', label: 'Summer' }],
};

function typeTag(text: string) {
  const input = screen.getByRole('combobox', { name: 'Tags' });
  act(() => input.focus());
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('TagsControl', () => {
  afterEach(() => notifications.clean());

  it('adds a valid new tag', () => {
    const { onChange } = renderControl(TagsControl, element, { value: ['Summer'] });
    typeTag('Black Friday (US)');
    expect(onChange).toHaveBeenLastCalledWith(['Summer', 'Black Friday (US)']);
    expect(screen.queryByText('Invalid tag')).toBeNull();
  });

  it.each([
    ['x', 'too short'],
    ['a'.repeat(33), 'too long'],
    ['bad/tag', 'only letters, numbers, spaces, "-", and "()" allowed'],
    ['summer', 'already exists'],
  ])('refuses %j with the danger notice "Invalid tag": %s', async (typed, message) => {
    const { onChange } = renderControl(TagsControl, element, { value: ['Summer'] });
    typeTag(typed);
    expect(await screen.findByText('Invalid tag')).toBeVisible();
    expect(screen.getByText(message)).toBeVisible();
    for (const [next] of onChange.mock.calls) expect(next).not.toContain(typed);
  });

  it('says how to add a var when a vars selector has nothing to offer', () => {
    renderControl(TagsControl, { ...element, options: [], input: { vars: true } }, { value: [] });
    expect(screen.getByRole('combobox', { name: 'Tags' })).toHaveAttribute(
      'placeholder',
      'No vars created, start typing to add new one',
    );
  });

  it('takes status codes that are not tags when the element asks for free text, still refusing repeats', async () => {
    const { onChange } = renderControl(TagsControl, { ...element, input: { freeText: true } }, { value: ['1'] });
    typeTag('sale_ok');
    expect(onChange).toHaveBeenLastCalledWith(['1', 'sale_ok']);
    typeTag('1');
    expect(await screen.findByText('Invalid tag')).toBeVisible();
    expect(screen.getByText('already exists')).toBeVisible();
  });
});
