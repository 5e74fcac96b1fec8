import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { IconPhoto } from '@tabler/icons-react';
import Image from '@tiptap/extension-image';
import { type Editor, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/** §2.6: an editor holding nothing but an empty paragraph counts as an empty string. */
function storedHtml(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

function htmlOf(value: unknown): string {
  return typeof value === 'string' && value !== '<p></p>' ? value : '';
}

/**
 * The rich-text editor of `text-html-editor` and `text-vue-editor` (§2.6): exactly the toolbar bold,
 * italic, underline, link, blockquote, code, image (asks for its URL), ordered and bullet list.
 * Value: the HTML as a string, '' when empty. Show stored HTML with `SafeHtml`.
 */
export function RichTextControl(props: FormControlProps) {
  const { element, value, onChange, disabled } = props;
  const { t } = useTranslation();
  const labelId = useId();
  const html = htmlOf(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false }),
      Link.configure({ openOnClick: false }),
      // data: images are what the server keeps besides the dashboard's own (api/config-records/rich-text.ts).
      Image.configure({ allowBase64: true }),
    ],
    content: html,
    editable: !disabled,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': labelId },
    },
    onUpdate: ({ editor: changed }) => {
      const next = storedHtml(changed);
      onChangeRef.current(next);
    },
  });

  // A value set from outside (the record arriving, a reset) replaces the document without echoing back.
  useEffect(() => {
    if (editor && !editor.isDestroyed && html !== storedHtml(editor)) {
      editor.commands.setContent(html, { emitUpdate: false });
    }
  }, [editor, html]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  const labels = useMemo(
    () => ({
      boldControlLabel: t('controls:controls.richText.bold'),
      italicControlLabel: t('controls:controls.richText.italic'),
      underlineControlLabel: t('controls:controls.richText.underline'),
      linkControlLabel: t('controls:controls.richText.link'),
      blockquoteControlLabel: t('controls:controls.richText.blockquote'),
      codeControlLabel: t('controls:controls.richText.code'),
      orderedListControlLabel: t('controls:controls.richText.orderedList'),
      bulletListControlLabel: t('controls:controls.richText.bulletList'),
      linkEditorInputLabel: t('controls:controls.richText.linkUrl'),
      linkEditorInputPlaceholder: t('controls:controls.richText.linkPlaceholder'),
      linkEditorExternalLink: t('controls:controls.richText.linkExternal'),
      linkEditorInternalLink: t('controls:controls.richText.linkInternal'),
      linkEditorSave: t('controls:controls.richText.linkSave'),
    }),
    [t],
  );

  const insertImage = () => {
    if (!editor) return;
    const url = window.prompt(t('controls:controls.richText.imagePrompt'))?.trim();
    if (url) editor.chain().focus().setImage({ src: url }).run();
  };

  const imageLabel = t('controls:controls.richText.image');
  return (
    <Input.Wrapper {...wrapperProps(props)} labelProps={{ id: labelId }} data-name={element.name}>
      <RichTextEditor editor={editor} labels={labels} {...element.input}>
        <RichTextEditor.Toolbar aria-label={t('controls:controls.richText.toolbar')} role="toolbar">
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold disabled={disabled} />
            <RichTextEditor.Italic disabled={disabled} />
            <RichTextEditor.Underline disabled={disabled} />
            <RichTextEditor.Link disabled={disabled} />
            <RichTextEditor.Blockquote disabled={disabled} />
            <RichTextEditor.Code disabled={disabled} />
            <RichTextEditor.Control
              onClick={insertImage}
              aria-label={imageLabel}
              title={imageLabel}
              disabled={disabled}
            >
              <IconPhoto size={16} stroke={1.5} aria-hidden />
            </RichTextEditor.Control>
            <RichTextEditor.OrderedList disabled={disabled} />
            <RichTextEditor.BulletList disabled={disabled} />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
