/**
 * Puts `text` on the clipboard; true when it got there. The clipboard API exists only in a secure context
 * (HTTPS or localhost): on a plain-HTTP LAN address, or where the browser refuses it, the text is selected
 * in a hidden textarea and copied with the copy command, as browsers allowed before that API.
 * Call it from the click itself: the copy command works only during a user's action.
 */
export async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (permissions, an unfocused document): the copy command may still be allowed.
    }
  }
  return copyWithCommand(text);
}

function copyWithCommand(text: string): boolean {
  const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const textarea = document.createElement('textarea');
  textarea.value = text;
  textarea.setAttribute('readonly', '');
  textarea.setAttribute('aria-hidden', 'true');
  // Out of sight and out of the layout, but selectable (display: none could not be selected).
  Object.assign(textarea.style, { position: 'fixed', insetBlockStart: '0', insetInlineStart: '-9999px', opacity: '0' });
  document.body.append(textarea);
  textarea.select();
  textarea.setSelectionRange(0, text.length);
  let copied = false;
  try {
    copied = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    copied = false;
  }
  textarea.remove();
  previousFocus?.focus({ preventScroll: true });
  return copied;
}
