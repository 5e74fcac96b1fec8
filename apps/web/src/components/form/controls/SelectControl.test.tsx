import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../../i18n';
import type { FormElement } from '../types';
import { renderControl } from './renderControl';
import { SelectControl } from './SelectControl';

const countries: FormElement = {
  name: 'countries',
  type: 'select',
  multiple: true,
  label: 'Countries',
  options: [
    { value: 'DE', label: 'Germany (DE)' },
    { value: 'FR', label: 'France (FR)' },
  ],
};

describe.each(['en', 'ar'])('a multi-select placeholder (%s)', (language) => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('reads "Every country" while nothing is chosen, and is gone once a country is', async () => {
    await i18n.changeLanguage(language);
    const placeholder = i18n.t('resources:offers.countriesPlaceholder');
    const empty = renderControl(SelectControl, { ...countries, value: [] }, { placeholder });
    expect(screen.getByPlaceholderText(placeholder)).toBeVisible();
    empty.unmount();

    renderControl(SelectControl, { ...countries, value: ['DE'] }, { placeholder });
    expect(screen.getAllByText('Germany (DE)')[0]).toBeVisible();
    expect(screen.queryByPlaceholderText(placeholder)).toBeNull();
  });
});
