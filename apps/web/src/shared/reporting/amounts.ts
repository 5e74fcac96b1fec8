import { currencyDecimals } from '@switchyard/domain';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Amounts in `currency` at its own decimals, with up to `extra` more where they mean something (an EPC
 * or a click's cost is often a fraction of a cent). Made once per language, currency and extra.
 */
export function amountFormat(language: string, currency: string, extra = 0): Intl.NumberFormat {
  const key = `${language}\u0000${currency}\u0000${extra}`;
  let format = formats.get(key);
  if (!format) {
    const decimals = currencyDecimals(currency);
    format = new Intl.NumberFormat(language, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals + extra,
    });
    formats.set(key, format);
  }
  return format;
}
