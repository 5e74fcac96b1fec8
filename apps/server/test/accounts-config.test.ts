import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { redactLinkToken } from '../src/http/log-redaction.js';

describe('account email settings', () => {
  it('has no SMTP and no public URL by default', () => {
    const config = loadConfig({});
    expect(config.smtpUrl).toBeUndefined();
    expect(config.publicUrl).toBeUndefined();
    expect(config.mailFrom).toBe('Switchyard <no-reply@localhost>');
  });

  it('needs SWITCHYARD_PUBLIC_URL with SMTP_URL: links in emails never come from the Host header', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/SWITCHYARD_PUBLIC_URL/);
    const config = loadConfig({
      SMTP_URL: 'smtp://mail.example.com:587',
      SWITCHYARD_PUBLIC_URL: 'https://t.example.com/sy/',
    });
    expect(config.publicUrl).toBe('https://t.example.com/sy');
    expect(config.mailFrom).toBe('Switchyard <no-reply@t.example.com>');
  });

  it('keeps account links out of the log unless SWITCHYARD_LOG_LINKS=true', () => {
    expect(loadConfig({}).logLinks).toBe(false);
    expect(loadConfig({ SWITCHYARD_LOG_LINKS: ' ' }).logLinks).toBe(false);
    expect(loadConfig({ SWITCHYARD_LOG_LINKS: 'false' }).logLinks).toBe(false);
    expect(loadConfig({ SWITCHYARD_LOG_LINKS: 'true' }).logLinks).toBe(true);
    expect(loadConfig({ SWITCHYARD_LOG_LINKS: 'TRUE' }).logLinks).toBe(true);
    expect(() => loadConfig({ SWITCHYARD_LOG_LINKS: 'yes' })).toThrow(/SWITCHYARD_LOG_LINKS must be true or false/);
  });

  it('refuses a malformed SMTP_URL or public URL', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SWITCHYARD_PUBLIC_URL: 'not a url' })).toThrow(/SWITCHYARD_PUBLIC_URL/);
    expect(() => loadConfig({ SWITCHYARD_PUBLIC_URL: 'ftp://example.com' })).toThrow(/SWITCHYARD_PUBLIC_URL/);
  });
});

describe('request logs', () => {
  it('leave out the token of a link opened in the dashboard', () => {
    const token = 'A'.repeat(43);
    expect(redactLinkToken(`/accept-invite/${token}`)).toBe('/accept-invite/[token]');
    expect(redactLinkToken(`/reset-password/${token}?x=1`)).toBe('/reset-password/[token]?x=1');
    expect(redactLinkToken(`/verify-email/${token}`)).toBe('/verify-email/[token]');
    expect(redactLinkToken('/admin/users')).toBe('/admin/users');
  });

  it('leave out a token sent in the query (an EventSource on /api/live)', () => {
    const token = 'B'.repeat(43);
    expect(redactLinkToken(`/api/live?token=${token}&campaign=c`)).toBe('/api/live?token=[token]&campaign=c');
    expect(redactLinkToken(`/api/live?campaign=c&token=${token}`)).toBe('/api/live?campaign=c&token=[token]');
    expect(redactLinkToken('/api/live?campaign=c')).toBe('/api/live?campaign=c');
  });
});
