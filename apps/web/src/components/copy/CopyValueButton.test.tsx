import { notifications } from '@mantine/notifications';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { ControlProviders } from '../form/controls/renderControl';
import { CopyValueButton } from './CopyValueButton';

const URL_TEXT = 'http://192.168.1.20:3000/c/spring?clickid=1';

/** What the copy command saw selected each time it ran; `allowed` is what the browser answers. */
function stubCopyCommand(allowed: boolean) {
  const selected: string[] = [];
  const execCommand = vi.fn((command: string) => {
    const area = document.activeElement instanceof HTMLTextAreaElement ? document.activeElement : null;
    const field = area ?? document.querySelector('textarea');
    if (command === 'copy' && field) selected.push(field.value.slice(field.selectionStart, field.selectionEnd));
    return allowed;
  });
  Object.defineProperty(document, 'execCommand', { configurable: true, value: execCommand });
  return { execCommand, selected };
}

const LANGUAGES = [
  { language: 'en', copy: 'Copy', copied: 'Copied', failed: 'Could not copy' },
  { language: 'ar', copy: 'نسخ', copied: 'تم النسخ', failed: 'تعذّر النسخ' },
] as const;

describe.each(LANGUAGES)('CopyValueButton ($language)', (text) => {
  beforeEach(async () => {
    await act(() => i18n.changeLanguage(text.language));
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(document, 'execCommand');
    notifications.clean();
    await act(() => i18n.changeLanguage('en'));
  });

  function renderButton() {
    render(
      <ControlProviders>
        <CopyValueButton value={URL_TEXT} />
      </ControlProviders>,
    );
    return screen.getByRole('button', { name: text.copy });
  }

  it('copies on a plain-HTTP LAN address, where there is no clipboard API, by selecting the text', async () => {
    vi.stubGlobal('isSecureContext', false);
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const { execCommand, selected } = stubCopyCommand(true);
    fireEvent.click(renderButton());

    expect(await screen.findByRole('button', { name: text.copied })).toBeVisible();
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(selected).toEqual([URL_TEXT]);
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('says so, with the value to copy by hand, when the browser allows no copying', async () => {
    vi.stubGlobal('isSecureContext', false);
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    stubCopyCommand(false);
    fireEvent.click(renderButton());

    expect(await screen.findByText(text.failed)).toBeVisible();
    expect(screen.getByText(new RegExp(URL_TEXT.replace(/[.?]/g, '\\$&')))).toBeVisible();
    expect(screen.getByRole('button', { name: text.copy })).toBeVisible();
  });

  it('uses the clipboard API in a secure context', async () => {
    vi.stubGlobal('isSecureContext', true);
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { execCommand } = stubCopyCommand(true);
    fireEvent.click(renderButton());

    expect(await screen.findByRole('button', { name: text.copied })).toBeVisible();
    expect(writeText).toHaveBeenCalledWith(URL_TEXT);
    expect(execCommand).not.toHaveBeenCalled();
  });
});
