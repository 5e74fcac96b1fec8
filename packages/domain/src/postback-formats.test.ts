import { describe, expect, it } from 'vitest';
import { POSTBACK_FORMATS, type PostbackFormat, postbackUrlFor } from './postback-formats.js';

const BASE = 'https://track.example.com/Ab3dEf6hIj9kLm2nOp5qRs8t/postback';
const KEYED = 'https://track.example.com/Ab3dEf6hIj9kLm2nOp5qRs8t';

/** A network with its own macro names, as its `postback_params` hold them. */
const NETWORK = { click_id: 'aff_sub', payout: 'amount', status: 'state', txid: 'order_id' };

describe('postbackUrlFor', () => {
  it.each<[PostbackFormat, string]>([
    ['switchyard', `${BASE}?clickid={aff_sub}&payout={amount}&status={state}&txid={order_id}&currency={currency}`],
    ['keitaro', `${BASE}?subid={aff_sub}&status={state}&payout={amount}&tid={order_id}`],
    ['binom', `${KEYED}/click.php?cnv_id={aff_sub}&payout={amount}&cnv_status={state}`],
    ['voluum', `${BASE}?cid={aff_sub}&payout={amount}&txid={order_id}&et={state}`],
    ['redtrack', `${BASE}?clickid={aff_sub}&sum={amount}&type={state}&txid={order_id}`],
  ])("writes %s's parameter names with the network's macros", (format, expected) => {
    expect(postbackUrlFor(format, BASE, NETWORK)).toBe(expected);
  });

  it('offers the five formats, Switchyard first', () => {
    expect(POSTBACK_FORMATS).toEqual(['switchyard', 'keitaro', 'binom', 'voluum', 'redtrack']);
  });

  it('takes the default macro names for values the network leaves unnamed', () => {
    expect(postbackUrlFor('switchyard', BASE, {})).toBe(
      `${BASE}?clickid={clickid}&payout={payout}&status={status}&txid={txid}&currency={currency}`,
    );
  });

  it.each<[PostbackFormat, string]>([
    ['switchyard', `${BASE}?clickid={clickid}&payout={sum}&currency={currency}`],
    ['keitaro', `${BASE}?subid={clickid}&payout={sum}`],
    ['binom', `${KEYED}/click.php?cnv_id={clickid}&payout={sum}`],
    ['voluum', `${BASE}?cid={clickid}&payout={sum}`],
    ['redtrack', `${BASE}?clickid={clickid}&sum={sum}`],
  ])('%s: leaves out a value whose macro name is empty, never the click id', (format, expected) => {
    expect(postbackUrlFor(format, BASE, { click_id: ' ', payout: ' sum ', status: '', txid: '' })).toBe(expected);
  });

  it('leaves out the currency when its macro name is empty', () => {
    expect(postbackUrlFor('switchyard', BASE, { ...NETWORK, currency: '' })).toBe(
      `${BASE}?clickid={aff_sub}&payout={amount}&status={state}&txid={order_id}`,
    );
  });

  it('takes a postback URL with a trailing slash', () => {
    expect(postbackUrlFor('binom', `${BASE}/`, NETWORK)).toBe(
      `${KEYED}/click.php?cnv_id={aff_sub}&payout={amount}&cnv_status={state}`,
    );
  });
});

describe('postback URLs with macros in the network’s own delimiters', () => {
  it('writes a macro given as #S1# as it is, and a bare name in braces', () => {
    const url = postbackUrlFor('switchyard', 'https://t.example/KEY/postback', {
      click_id: '#S1#',
      payout: '#RATE#',
      status: '',
      txid: 'txid',
    });
    expect(url).toContain('=#S1#');
    expect(url).toContain('=#RATE#');
    expect(url).toContain('={txid}');
    expect(url).not.toContain('{#');
  });
});
