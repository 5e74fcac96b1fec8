import { notifications } from '@mantine/notifications';
import { getResource, type TTrafficSourceParameter } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from './controls/renderControl';
import { ResourceForm } from './ResourceForm';
import type { FormElement } from './types';
import { placeOfPath, validateForm } from './validateForm';

const trafficSources = getResource('traffic-sources');

const parameter = (name: string, tsParameter: string, position: number): TTrafficSourceParameter => ({
  name,
  ts_parameter: tsParameter,
  ts_token: '',
  internal_token: `var${position}`,
  enabled: true,
});

function elementsWith(parameters: TTrafficSourceParameter[]): FormElement[] {
  return [
    { name: 'name', type: 'input', label: 'Source name', required: true, value: 'Source' },
    { name: 'parameters', type: 'ts-parameters-repeater', label: 'Parameters', value: parameters },
  ];
}

function renderForm(parameters: TTrafficSourceParameter[]) {
  return render(
    <MemoryRouter>
      <ControlProviders>
        <ResourceForm definition={trafficSources} elements={elementsWith(parameters)} />
      </ControlProviders>
    </MemoryRouter>,
  );
}

const row = (position: number) => screen.getAllByRole('listitem')[position - 1] as HTMLElement;
const input = (position: number, label: RegExp) => within(row(position)).getByLabelText(label) as HTMLInputElement;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('nested form errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps each nested path apart from the element it is in', () => {
    const elements = elementsWith([parameter('a', 'p_a', 1), parameter('b', '', 2)]);
    const values = { name: 'Source', parameters: elements[1]?.value };
    const result = validateForm(elements, values, trafficSources.form, String);
    expect(result.errors).toEqual({});
    expect(result.fieldErrors).toEqual({ parameters: { '1.ts_parameter': 'This field is required' } });
    expect(placeOfPath(elements, 'parameters.1.name')).toEqual({ name: 'parameters', path: '1.name' });
    expect(placeOfPath(elements, 'parameters')).toEqual({ name: 'parameters', path: '' });
    expect(placeOfPath(elements, 'other.0')).toBeUndefined();
  });

  it("shows a required parameter missing in row 2 under row 2's Parameter, not under the Add button", () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderForm([parameter('a', 'p_a', 1), parameter('b', '', 2)]);
    save();

    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(within(row(2)).getByText('This field is required')).toBeVisible();
    expect(input(2, /^Parameter/).getAttribute('aria-invalid')).toBe('true');
    expect(input(1, /^Parameter/).getAttribute('aria-invalid')).not.toBe('true');
    // Not on the element: no message beside the Add button, and no "Looks good!" for the repeater, nor
    // for the name left as it was (only edited fields read "Looks good!").
    expect(screen.queryAllByText('Looks good!')).toHaveLength(0);
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(input(2, /^Parameter/), { target: { value: 'sub_id' } });
    expect(screen.queryByText('This field is required')).toBeNull();
  });

  it("shows a server error on parameters.1.name under row 2's Name until that field is edited", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              message: 'The data you sent is not valid',
              errors: { 'parameters.1.name': ['This name is taken'] },
            }),
            { status: 400 },
          ),
      ),
    );
    renderForm([parameter('a', 'p_a', 1), parameter('b', 'p_b', 2)]);
    save();

    await waitFor(() => expect(within(row(2)).getByText('This name is taken')).toBeVisible());
    expect(screen.getAllByText('This name is taken')).toHaveLength(1);
    expect(input(2, /^Name/).getAttribute('aria-invalid')).toBe('true');
    // Every server error found its field, so there is no alert over the form.
    expect(screen.queryByRole('alert')).toBeNull();

    // Editing another field keeps it; editing that field clears it.
    fireEvent.change(input(1, /^Name/), { target: { value: 'a2' } });
    expect(within(row(2)).getByText('This name is taken')).toBeVisible();
    fireEvent.change(input(2, /^Name/), { target: { value: 'b2' } });
    expect(screen.queryByText('This name is taken')).toBeNull();
  });
});

describe('notices of a save', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    // Notices live in Mantine's one store, past the test that showed them.
    act(() => notifications.clean());
  });

  function answerWith(extra: Record<string, unknown>) {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ external_id: 'abc123', name: 'Source', ...extra }), {
            status: 201,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    );
  }

  it('lists the images the server removed from rich text, beside "Created"', async () => {
    answerWith({
      notices: [
        {
          code: 'remote_images_removed',
          field: 'description',
          images: ['https://tracker.example/p.gif', 'http://pixel.example/q.gif'],
        },
      ],
    });
    renderForm([parameter('a', 'p_a', 1)]);
    save();

    expect(await screen.findByText('Images from other sites removed')).toBeVisible();
    expect(
      screen.getByText(/Removed: https:\/\/tracker\.example\/p\.gif, http:\/\/pixel\.example\/q\.gif$/),
    ).toBeVisible();
    expect(screen.getByText('Created')).toBeVisible();
  });

  it('says only "Created" when the server removed nothing', async () => {
    answerWith({});
    renderForm([parameter('a', 'p_a', 1)]);
    save();

    expect(await screen.findByText('Created')).toBeVisible();
    expect(screen.queryByText('Images from other sites removed')).toBeNull();
  });
});
