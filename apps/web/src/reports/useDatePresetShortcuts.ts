import { useEffect, useRef } from 'react';
import { DATE_PRESET_SHORTCUTS, DATE_PRESETS, type DatePreset } from '../shared/reporting/dateRanges';

/** Where a typed digit belongs to what has the focus: a field, a menu, an open list or a dialog. */
const TYPING_PLACES =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="menu"], [role="listbox"]';

/** The preset a key press picks: its digit on the top row or the keypad, without any modifier. */
export function presetOfKey(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>,
): DatePreset | undefined {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return undefined;
  // The key's place on the keyboard, so that an Arabic layout's ١ is 1 too.
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(event.code)?.[1] ?? event.key;
  return DATE_PRESETS.find((preset) => DATE_PRESET_SHORTCUTS[preset] === digit);
}

/**
 * The date presets' shortcuts (DATE_PRESET_SHORTCUTS) while the reports screen is open and the
 * focus is not somewhere a digit is typed or picks something else.
 */
export function useDatePresetShortcuts(choose: (preset: DatePreset) => void): void {
  const latest = useRef(choose);
  latest.current = choose;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const preset = presetOfKey(event);
      if (!preset) return;
      if (event.target instanceof Element && event.target.closest(TYPING_PLACES)) return;
      event.preventDefault();
      latest.current(preset);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
