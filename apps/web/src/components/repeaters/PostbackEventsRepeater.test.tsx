import { getResource, ZPostbackEventEntries } from '@switchyard/domain';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resourceKeys } from '../../api/queryKeys';
import type { FormControlProps } from '../form/types';
import { PostbackEventsRepeater } from './PostbackEventsRepeater';
import { PostbackEventsRepeaterControl } from './PostbackEventsRepeaterControl';
import { renderControl } from './renderControl';

const EVENTS = [
  { value: 'ev_lead', label: 'Lead' },
  { value: 'ev_sale', label: 'Sale' },
];

function WithEvents(props: FormControlProps) {
  return <PostbackEventsRepeater {...props} events={EVENTS} />;
}

const entry = (id: string) => ({
  postback_event_external_id: id,
  is_conversion: false,
  send_to_traffic_source: false,
  send_zero_conversions: false,
});

const addButton = () => screen.queryByRole('button', { name: 'Add postback event' });

describe('postback-events-repeater', () => {
  it('gives each new row an unused event and drops Add when every event is used', () => {
    const view = renderControl(WithEvents, [], { element: { name: 'postback_events' } });
    fireEvent.click(addButton() as HTMLElement);
    expect(view.last()).toEqual([entry('ev_lead')]);

    fireEvent.click(addButton() as HTMLElement);
    expect(view.last()).toEqual([entry('ev_lead'), entry('ev_sale')]);
    expect(addButton()).toBeNull();
    expect(screen.getByText('Every postback event is already chosen.')).toBeVisible();
    expect(ZPostbackEventEntries.safeParse(view.last()).success).toBe(true);

    // Freeing an event brings Add back.
    fireEvent.click(screen.getByRole('button', { name: 'Delete row 1' }));
    expect(view.last()).toEqual([entry('ev_sale')]);
    expect(addButton()).not.toBeNull();
  });

  it("offers in a row's select only its own event and the unused ones", () => {
    renderControl(WithEvents, [entry('ev_lead')], { element: { name: 'postback_events' } });
    fireEvent.click(screen.getByRole('combobox', { name: 'Postback event' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Lead', 'Sale']);
  });

  it('offers no event twice across rows', () => {
    renderControl(WithEvents, [entry('ev_lead'), entry('ev_sale')], { element: { name: 'postback_events' } });
    const [first] = screen.getAllByRole('combobox', { name: 'Postback event' });
    fireEvent.click(first as HTMLElement);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Lead']);
  });

  it('has no Duplicate, as each event is chosen once', () => {
    renderControl(WithEvents, [entry('ev_lead')]);
    expect(screen.queryByRole('button', { name: /Duplicate row/ })).toBeNull();
  });

  it('carries the postback URL and the flags where the element shows the URL', () => {
    const view = renderControl(WithEvents, [], { element: { input: { showPostbackUrl: true } } });
    fireEvent.click(addButton() as HTMLElement);
    fireEvent.change(screen.getByLabelText('Postback URL'), { target: { value: 'https://ts.example/pb?c={clickid}' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Send to traffic source' }));
    expect(view.last()).toEqual([
      { ...entry('ev_lead'), postback_url: 'https://ts.example/pb?c={clickid}', send_to_traffic_source: true },
    ]);
    expect(ZPostbackEventEntries.safeParse(view.last()).success).toBe(true);
  });

  it("lists the macros under a row's postback URL and adds the chosen one to it", async () => {
    const view = renderControl(WithEvents, [{ ...entry('ev_lead'), postback_url: 'https://ts.example/pb?c=' }], {
      element: { input: { showPostbackUrl: true } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Macros' }));
    expect(await screen.findByText('{payout}')).toBeVisible();
    expect(screen.getByText('Conversion payout')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Insert {external_id}' }));
    expect(view.last()).toEqual([{ ...entry('ev_lead'), postback_url: 'https://ts.example/pb?c={external_id}' }]);
  });

  it('loads the events from the postback-events lookup when the element has no options', () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    queryClient.setQueryData(resourceKeys.lookup(getResource('postback-events')), {
      list: [{ external_id: 'ev_install', name: 'Install' }],
      total: 1,
    });
    const view = renderControl(PostbackEventsRepeaterControl, [], { queryClient });
    fireEvent.click(addButton() as HTMLElement);
    expect(view.last()).toEqual([entry('ev_install')]);
    expect(addButton()).toBeNull();
  });

  it("shows a message inside the value under its row's input", () => {
    renderControl(WithEvents, [entry('ev_lead'), entry('ev_sale')], {
      element: { name: 'postback_events' },
      fieldErrors: { '1.postback_event_external_id': 'Each postback event can be chosen once' },
    });
    const rows = screen.getAllByRole('listitem');
    expect(screen.getAllByText('Each postback event can be chosen once')).toHaveLength(1);
    expect(within(rows[1] as HTMLElement).getByText('Each postback event can be chosen once')).toBeVisible();
  });
});
