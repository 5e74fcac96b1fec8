import { describe, expect, it } from 'vitest';
import { nestValues, valueAtPath } from './valuePaths';

describe('element names with a path', () => {
  it('reads a nested value, and a flat one first when both exist', () => {
    const record = { postback_params: { click_id: 'cid' }, 'a.b': 'flat', a: { b: 'nested' } };
    expect(valueAtPath(record, 'postback_params.click_id')).toBe('cid');
    expect(valueAtPath(record, 'a.b')).toBe('flat');
    expect(valueAtPath(record, 'postback_params.missing')).toBeUndefined();
    expect(valueAtPath({ name: null }, 'name.first')).toBeUndefined();
  });

  it('nests dotted names for the body and leaves plain names alone', () => {
    expect(nestValues({ name: 'Net', 'postback_params.click_id': 'cid', 'postback_params.txid': 'tx' })).toEqual({
      name: 'Net',
      postback_params: { click_id: 'cid', txid: 'tx' },
    });
  });
});
