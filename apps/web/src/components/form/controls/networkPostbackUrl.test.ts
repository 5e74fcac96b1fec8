import { describe, expect, it } from 'vitest';
import { networkPostbackUrl } from './networkPostbackUrl';

describe('networkPostbackUrl', () => {
  it("puts the network's macro for each value behind the tracker's parameter", () => {
    expect(
      networkPostbackUrl('https://track.example', {
        click_id: 'aff_sub',
        payout: 'amount',
        status: 'state',
        txid: 'id',
      }),
    ).toBe('https://track.example/postback?clickid={aff_sub}&payout={amount}&status={state}&txid={id}');
  });

  it('leaves out values the network does not send, but always carries the click id', () => {
    expect(networkPostbackUrl('http://localhost:3000', { click_id: ' ', payout: 'sum' })).toBe(
      'http://localhost:3000/postback?clickid={clickid}&payout={sum}',
    );
  });
});
