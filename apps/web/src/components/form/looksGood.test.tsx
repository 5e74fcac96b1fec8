import { getResource } from '@switchyard/domain';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { ControlProviders } from './controls/renderControl';
import { ResourceForm } from './ResourceForm';
import type { FormElement } from './types';

const ELEMENTS: FormElement[] = [
  { name: 'name', type: 'input', label: 'Name', required: true, value: '' },
  { name: 'cost_parameter', type: 'input', label: 'Cost parameter', value: '' },
  { name: 'default_cost', type: 'number', label: 'Default cost', value: 0 },
];

describe.each(['en', 'ar'])('"Looks good!" (§2.6) (%s)', (language) => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('shows under a field the person edited, never under one left as it was', async () => {
    await i18n.changeLanguage(language);
    vi.stubGlobal('fetch', vi.fn());
    render(
      <MemoryRouter>
        <ControlProviders>
          <ResourceForm definition={getResource('traffic-sources')} elements={ELEMENTS} />
        </ControlProviders>
      </MemoryRouter>,
    );
    const costParameter = screen.getByRole('textbox', { name: 'Cost parameter' });
    fireEvent.keyDown(costParameter, { key: 'c' });
    fireEvent.change(costParameter, { target: { value: 'cost' } });
    fireEvent.click(screen.getByRole('button', { name: i18n.t('resources:form.save') }));

    // The name is required and empty: its error; the cost parameter was edited and is fine; the default
    // cost was not touched, so nothing is said about it.
    const looksGood = screen.getAllByText(i18n.t('resources:form.looksGood'));
    expect(looksGood).toHaveLength(1);
    expect(looksGood[0]?.previousElementSibling?.textContent).toContain('Cost parameter');
    expect(screen.getByText(i18n.t('common:validation.required'))).toBeVisible();
  });
});
