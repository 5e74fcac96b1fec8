import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { useFormatMoney } from '../../shared/reporting/useFormatMoney';

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;

describe('amounts in lists (cost to its real precision)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows a CPC of 0.002 as 0.002, not 0, and keeps money to its cents', async () => {
    await i18n.changeLanguage('en');
    const format = renderHook(() => useFormatMoney(), { wrapper }).result.current;
    expect(format(0.002)).toBe('0.002');
    expect(format(0.0035, 'USD')).toBe('$0.0035');
    expect(format(1.5, 'USD')).toBe('$1.50');
    expect(format(12)).toBe('12');
  });

  it('shows whole yen as its currency has no cents, and dinars to their three decimals', async () => {
    await i18n.changeLanguage('en');
    const format = renderHook(() => useFormatMoney(), { wrapper }).result.current;
    expect(format(1500, 'JPY')).toBe('¥1,500');
    expect(format(2, 'KWD')).toMatch(/^KWD\s2\.000$/);
  });

  it('in Arabic too', async () => {
    await i18n.changeLanguage('ar');
    const format = renderHook(() => useFormatMoney(), { wrapper }).result.current;
    expect(format(0.002)).toBe(new Intl.NumberFormat('ar', { maximumFractionDigits: 6 }).format(0.002));
    expect(format(0.002)).not.toBe(new Intl.NumberFormat('ar').format(0));
  });
});
