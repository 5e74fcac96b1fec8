import { notifications } from '@mantine/notifications';
import { ALL_CONDITION_TEXT, getResource } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { ControlProviders } from './controls/renderControl';
import { ResourceForm } from './ResourceForm';
import type { FormElement } from './types';

const segments = getResource('segments');
const ELEMENTS: FormElement[] = [
  { name: 'name', type: 'input', label: 'resources:form.name', required: true, value: '' },
  {
    name: 'condition',
    type: 'condition-builder',
    label: 'Condition',
    value: ALL_CONDITION_TEXT,
    input: { flowType: 'api', excludeSegments: [] },
  },
];
const RECORD = { external_id: 's1', name: 'Buyers', condition: ALL_CONDITION_TEXT };

/** A segment's edit form at /form, beside a link to another screen. */
function renderForm() {
  const router = createMemoryRouter(
    [
      {
        path: '/form',
        element: (
          <>
            <Link to="/elsewhere">Elsewhere</Link>
            <ResourceForm definition={segments} elements={ELEMENTS} record={RECORD} />
          </>
        ),
      },
      { path: '/elsewhere', element: <p>Another screen</p> },
      { path: '/admin/segments', element: <p>Segment list</p> },
    ],
    { initialEntries: ['/form'] },
  );
  render(
    <ControlProviders>
      <RouterProvider router={router} />
    </ControlProviders>,
  );
  return router;
}

const nameInput = () => screen.getAllByRole('textbox')[0] as HTMLInputElement;
/** Typing as a person does: a key goes down in the field, and its text changes. */
const typeName = (text: string) => {
  fireEvent.keyDown(nameInput(), { key: 'a' });
  fireEvent.change(nameInput(), { target: { value: text } });
};
const unloadAsked = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe.each([
  ['en', 'Leave without saving?', 'Stay on the form', 'Leave and lose changes'],
  ['ar', 'المغادرة دون حفظ؟', 'البقاء في النموذج', 'المغادرة وفقدان التغييرات'],
])('leaving a changed form (%s)', (language, title, stay, leave) => {
  beforeEach(async () => {
    await i18n.changeLanguage(language);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('leaves an unchanged form without asking, and the tab closes without asking', async () => {
    const router = renderForm();
    expect(unloadAsked()).toBe(false);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks before leaving a changed form: stay keeps the changes, leave goes', async () => {
    const router = renderForm();
    typeName('Buyers 2');
    expect(unloadAsked()).toBe(true);

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: title });
    fireEvent.click(within(dialog).getByRole('button', { name: stay }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/form');
    expect(nameInput().value).toBe('Buyers 2');

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: title })).getByRole('button', { name: leave }));
    expect(await screen.findByText('Another screen')).toBeVisible();
  });

  it('asks too when a rule was added and left incomplete, though nothing stored changed', async () => {
    renderForm();
    const addRule = screen.getAllByRole('button', {
      name: i18n.t('controls:conditionBuilder.addRule'),
    })[0] as HTMLElement;
    fireEvent.pointerDown(addRule);
    fireEvent.click(addRule);
    expect(document.querySelectorAll('[data-rule]')).toHaveLength(1);
    expect(unloadAsked()).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: title })).toBeVisible();
  });

  it('no longer asks once the changes are saved', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ...RECORD, name: 'Buyers 2' }), { status: 200 })),
    );
    const router = renderForm();
    typeName('Buyers 2');
    fireEvent.click(screen.getByRole('button', { name: i18n.t('resources:form.save') }));
    await waitFor(() => expect(unloadAsked()).toBe(false));
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});

describe.each([
  ['en', 'Incomplete rules not saved', 'Left out because they were not filled in: Country and Device'],
  ['ar', 'لم تُحفظ القواعد غير المكتملة', 'استُبعدت لأنها لم تُكمَل: الدولة والجهاز'],
])('rules dropped on save (§5.4) (%s)', (language, title, message) => {
  beforeEach(async () => {
    await i18n.changeLanguage(language);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    act(() => notifications.clean());
    await i18n.changeLanguage('en');
  });

  it('names the incomplete rules left out after saving, and takes them off the form', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(RECORD), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderForm();
    const addRule = () =>
      fireEvent.click(screen.getAllByRole('button', { name: i18n.t('controls:conditionBuilder.addRule') })[0] as never);
    addRule();
    addRule();
    // The second rule is made a Device rule; neither gets a value.
    const fields = screen.getAllByRole('combobox', { name: i18n.t('controls:conditionBuilder.field') });
    fireEvent.click(fields[1] as HTMLElement);
    fireEvent.click(await screen.findByRole('option', { name: i18n.t('controls:conditionBuilder.fields.device') }));
    expect(document.querySelectorAll('[data-rule]')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: i18n.t('resources:form.save') }));
    expect(await screen.findByText(title)).toBeVisible();
    expect(screen.getByText(message)).toBeVisible();
    // What was sent is what is stored: no rules; and the form now shows just that.
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit | undefined][];
    const put = calls.find(([, init]) => init?.method === 'PUT');
    const body = JSON.parse(String(put?.[1]?.body));
    expect(body.condition).toBe(ALL_CONDITION_TEXT);
    await waitFor(() => expect(document.querySelectorAll('[data-rule]')).toHaveLength(0));
  });

  it('says nothing when every rule is complete', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(RECORD), { status: 200 })),
    );
    renderForm();
    typeName('Buyers 2');
    fireEvent.click(screen.getByRole('button', { name: i18n.t('resources:form.save') }));
    expect(await screen.findByText(i18n.t('resources:form.saved'))).toBeVisible();
    expect(screen.queryByText(title)).toBeNull();
  });
});
