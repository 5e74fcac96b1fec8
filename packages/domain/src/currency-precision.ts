// Money is shown at its currency's own precision (ISO 4217 minor units, as Intl knows them): 1,235 yen,
// 12.50 dollars, 1.250 Bahraini dinars. Two decimals for every currency showed yen cents and cut dinars.

const DECIMALS = new Map<string, number>();

/** The decimals a currency is written with; 2 for a code Intl does not know. */
export function currencyDecimals(currency: string | null | undefined): number {
  const code = (currency ?? '').toUpperCase();
  const known = DECIMALS.get(code);
  if (known !== undefined) return known;
  let decimals = 2;
  try {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits as number;
  } catch {
    // Not a currency code: the common two.
  }
  DECIMALS.set(code, decimals);
  return decimals;
}
