import { describe, expect, it } from 'vitest';
import { formatDateTime } from './formatDateTime';

describe("dates in lists, in the interface language's way", () => {
  const at = '2026-05-01 14:30:00';

  it('reads as English in English', () => {
    expect(formatDateTime(at, 'en')).toMatch(/^May 1, 2026, 2:30\sPM$/);
  });

  it('reads as French in French and as Arabic in Arabic, not as 2026-05-01 14:30', () => {
    expect(formatDateTime(at, 'fr')).toBe('1 mai 2026, 14:30');
    const arabic = formatDateTime(at, 'ar');
    expect(arabic).toContain('2:30 م');
    expect(arabic).not.toContain('2026-05-01');
  });

  it('shows nothing for what is not a date', () => {
    expect(formatDateTime(null, 'en')).toBe('');
    expect(formatDateTime('soon', 'en')).toBe('');
  });
});
