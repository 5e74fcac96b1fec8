// Conversions with a life (pending → approved → rejected), keyed postbacks per workspace, and
// amounts in the workspace's currency.
//
// A conversion is one row per click (or lead), postback event and txid: `event_key` and `txid_key` are
// those values with '' for none, so the unique indexes see a postback without a txid as a real key and
// 50 identical ones store one row. Each postback that reaches a conversion is a postback_log row with
// the state it found and the state it left: the conversion's history.
import { randomBytes } from 'node:crypto';

/** Rates of exchange that administrators edit: units of the currency one US dollar buys. */
export interface CurrencyRateTable {
  code: string;
  rate: number;
  /** 'snapshot' (shipped, dated) or 'admin' (edited). */
  source: string;
  /** The snapshot's date, or when an administrator set it (ISO-8601). */
  updated_at: string;
}

/** 22 or more random URL-safe characters (Contract): 18 bytes, 24 characters. */
export function newPostbackKey(): string {
  return randomBytes(18).toString('base64url');
}
