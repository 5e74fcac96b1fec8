// What an affiliate network's postback carries, by the names networks and other trackers send.

/** The parameters a postback is read by, each with its aliases (the first found wins). */
export const POSTBACK_PARAMETER_ALIASES = {
  clickId: ['subid', 'clickid', 'click_id', 'cid', 'cnv_id', 'lead_id'],
  payout: ['payout', 'revenue', 'sum'],
  status: ['status', 'cnv_status', 'et', 'type'],
  event: ['event'],
  txid: ['tid', 'txid', 'transaction_id'],
  currency: ['currency', 'cnv_currency'],
} as const;

/** The parameters a payout is read from: money, which a raw postback shows only to who may see it. */
export const PAYOUT_PARAMETERS: readonly string[] = POSTBACK_PARAMETER_ALIASES.payout;
