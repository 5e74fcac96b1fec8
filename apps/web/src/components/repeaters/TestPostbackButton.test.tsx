import { VALIDATION_MESSAGES } from '@switchyard/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormControlProps } from '../form/types';
import { PostbackEventsRepeater } from './PostbackEventsRepeater';
import { renderControl } from './renderControl';

function WithEvents(props: FormControlProps) {
  return <PostbackEventsRepeater {...props} events={[{ value: 'ev_sale', label: 'Sale' }]} />;
}

const row = (postback_url: string) => ({
  postback_event_external_id: 'ev_sale',
  postback_url,
  is_conversion: false,
  send_to_traffic_source: true,
  send_zero_conversions: false,
});

const answer = (status: number, body: unknown) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));

describe('Send test postback', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the row’s postback URL and shows the request and the answer', async () => {
    const fetchMock = answer(200, {
      request: { method: 'GET', url: 'https://ts.example/pb?c=test-click&p=1.00' },
      response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK received' },
      error: null,
      duration_ms: 42,
    });
    vi.stubGlobal('fetch', fetchMock);
    renderControl(WithEvents, [row('https://ts.example/pb?c={clickid}&p={payout}')], {
      element: { input: { showPostbackUrl: true } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send test postback' }));

    const dialog = await screen.findByRole('dialog', { name: 'Test postback' });
    expect(await within(dialog).findByText('GET https://ts.example/pb?c=test-click&p=1.00')).toBeVisible();
    expect(within(dialog).getByText('200')).toBeVisible();
    expect(within(dialog).getByText('Answered in 42 ms')).toBeVisible();
    expect(within(dialog).getByLabelText('Body of the answer')).toHaveTextContent('OK received');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/traffic-sources/test-postback');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ url: 'https://ts.example/pb?c={clickid}&p={payout}' });
  });

  it('shows that no answer came', async () => {
    vi.stubGlobal(
      'fetch',
      answer(200, {
        request: { method: 'GET', url: 'https://ts.example/pb' },
        response: null,
        error: 'No answer within 5000 ms',
        duration_ms: 5001,
      }),
    );
    renderControl(WithEvents, [row('https://ts.example/pb')], { element: { input: { showPostbackUrl: true } } });
    fireEvent.click(screen.getByRole('button', { name: 'Send test postback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test postback' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No answer: No answer within 5000 ms');
  });

  it('shows why the URL was refused', async () => {
    vi.stubGlobal(
      'fetch',
      answer(400, {
        message: 'The data you sent is not valid',
        errors: { url: [VALIDATION_MESSAGES.privateTarget] },
      }),
    );
    renderControl(WithEvents, [row('http://10.0.0.5/pb')], { element: { input: { showPostbackUrl: true } } });
    fireEvent.click(screen.getByRole('button', { name: 'Send test postback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test postback' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(VALIDATION_MESSAGES.privateTarget);
  });

  it('is off while the row has no postback URL', () => {
    renderControl(WithEvents, [row('')], { element: { input: { showPostbackUrl: true } } });
    expect(screen.getByRole('button', { name: 'Send test postback' })).toBeDisabled();
  });
});
