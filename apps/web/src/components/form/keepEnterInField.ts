import type { KeyboardEvent } from 'react';

/**
 * Put on an element around an input that takes values with Enter (tag and value lists): an Enter the input
 * left unhandled, as in an empty one, stays there instead of submitting the whole form. Bubbling
 * runs after the input's own handler, so choosing a highlighted option with Enter still works.
 */
export function keepEnterInField(event: KeyboardEvent<HTMLElement>): void {
  if (event.key === 'Enter' && !event.nativeEvent.isComposing) event.preventDefault();
}
