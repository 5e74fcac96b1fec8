import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Editor } from '@tiptap/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormElement } from '../types';
import { RichTextControl } from './RichTextControl';
import { renderControl } from './renderControl';

const element: FormElement = { name: 'description', type: 'text-html-editor', label: 'Description' };

/** ProseMirror cannot be typed into under jsdom; tiptap hangs its editor on the editable element. */
async function editorOf(): Promise<Editor> {
  const box = await screen.findByRole('textbox', { name: 'Description' });
  return (box as HTMLElement & { editor: Editor }).editor;
}

describe('RichTextControl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows exactly the toolbar of §2.6', () => {
    renderControl(RichTextControl, element, { value: '' });
    const toolbar = screen.getByRole('toolbar');
    const names = [...toolbar.querySelectorAll('button')].map((button) => button.getAttribute('aria-label'));
    expect(names).toEqual([
      'Bold',
      'Italic',
      'Underline',
      'Link',
      'Blockquote',
      'Code',
      'Image',
      'Ordered list',
      'Bullet list',
    ]);
  });

  it('shows the stored HTML', async () => {
    renderControl(RichTextControl, element, { value: '<p>Hello <strong>world</strong></p>' });
    const box = await screen.findByRole('textbox', { name: 'Description' });
    expect(box.textContent).toBe('Hello world');
  });

  it('stores emptied content as an empty string', async () => {
    const { onChange } = renderControl(RichTextControl, element, { value: '<p>Hello</p>' });
    const editor = await editorOf();
    act(() => {
      editor.commands.clearContent(true);
    });
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('inserts an image from the URL asked for', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue(' https://example.com/a.png ');
    const { onChange } = renderControl(RichTextControl, element, { value: '' });
    await editorOf();
    fireEvent.click(screen.getByRole('button', { name: 'Image' }));
    expect(window.prompt).toHaveBeenCalledWith('Image URL');
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('src="https://example.com/a.png"')),
    );
  });

  it('inserts nothing when the URL prompt is cancelled', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue(null);
    const { onChange } = renderControl(RichTextControl, element, { value: '' });
    await editorOf();
    fireEvent.click(screen.getByRole('button', { name: 'Image' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});
