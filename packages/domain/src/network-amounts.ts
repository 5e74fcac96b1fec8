// The one rule for every amount a network or traffic source sends (a postback's payout,
// revenue or sum, an imported conversion's payout, a click's Auto cost). `1,000` was read as 1 while
// `1,000.50` was refused: an amount is now read only when it cannot mean two things.

/** Digits with at most one decimal mark, `.` or `,` (some networks write `2,5`). */
const PLAIN_DECIMAL = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;

/**
 * A mark after 1 to 3 digits (not a lone 0) followed by exactly three digits: `1,000`, `1.000`, `12.500`
 * are a thousand, a thousand and twelve thousand five hundred in half the world, and 1, 1 and 12.5 in
 * the other half.
 */
const EITHER_READING = /^[1-9]\d{0,2}[.,]\d{3}$/;

/**
 * The amount in `text` (spaces around it ignored), or undefined when it is not one: anything but a plain
 * decimal (thousands separators, signs, exponents, spaces inside, two marks) and a plain decimal that
 * reads two ways (EITHER_READING). Negative amounts are thereby refused too.
 */
export function readNetworkAmount(text: string): number | undefined {
  const trimmed = text.trim();
  if (!PLAIN_DECIMAL.test(trimmed) || EITHER_READING.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

/** How the rule reads, for the README, answers and the dashboard. */
export const NETWORK_AMOUNT_RULE =
  'a plain decimal such as 1000 or 12.5 (a comma as the decimal mark too): no thousands separators, and no ' +
  'mark followed by exactly three digits, such as 1,000 or 1.000, which reads two ways';
