import { TagsInput } from '@mantine/core';
import { type TagProblem, tagProblem } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { BulkInsertDialog } from '../../condition-builder/BulkInsertDialog';
import { useBulkPaste } from '../../condition-builder/useBulkPaste';
import { showNotice } from '../../feedback/showNotice';
import { fieldProps } from '../fieldProps';
import { keepEnterInField } from '../keepEnterInField';
import type { FormControlProps } from '../types';

/**
 * A multi-select that takes new values as typed (`tags`): `options` are offered, anything else typed is
 * checked by the rules of §5.2 and refused with the danger notice "Invalid tag".
 * Value: string[]. `input.vars: true` marks a vars selector, which says "No vars created, start typing
 * to add new one" while there is nothing to offer (§2.6). A paste of several values asks "Possible bulk
 * insert detected" first (§5.5: `input.bulkThreshold` chunks, 2 by default), each value then checked the
 * same way. Enter in the empty input does not submit the form. Other `input` props go to Mantine's TagsInput.
 */
function freeTextProblem(tag: string, existing: string[]): TagProblem | null {
  const trimmed = tag.trim();
  if (!trimmed) return 'empty';
  return existing.some((other) => other.toLowerCase() === trimmed.toLowerCase()) ? 'exists' : null;
}

export function TagsControl(props: FormControlProps) {
  const { element, value, onChange } = props;
  const { t } = useTranslation();
  const { vars, freeText, bulkThreshold, ...inputProps } = (element.input ?? {}) as {
    vars?: boolean;
    freeText?: boolean;
    bulkThreshold?: number;
  } & Record<string, unknown>;
  const bulk = useBulkPaste(bulkThreshold);
  const tags = Array.isArray(value) ? value.map(String) : [];
  const options = element.options ?? [];
  const offered = options.map((option) => String(option.value));
  const known = [...offered, ...options.map((option) => option.label)];

  const refuse = (problem: TagProblem) =>
    showNotice({
      kind: 'danger',
      title: t('controls:controls.tags.invalid'),
      message: t(`controls:controls.tags.problems.${problem}`),
    });

  const change = (next: string[]) => {
    const accepted: string[] = [];
    for (const tag of next) {
      if (tags.includes(tag) || offered.includes(tag)) {
        accepted.push(tag);
        continue;
      }
      // `input.freeText`: values that are not tags (status codes such as `1` or `sale_ok`): only empty
      // and repeated values are refused.
      const problem = freeText
        ? freeTextProblem(tag, [...accepted, ...tags])
        : tagProblem(tag, [...accepted, ...tags, ...known]);
      if (problem) refuse(problem);
      else accepted.push(tag.trim());
    }
    onChange(accepted);
  };

  const emptyText = vars && options.length === 0 && tags.length === 0 ? t('controls:controls.tags.noVars') : undefined;
  const addPasted = (values: string[]) => {
    bulk.close();
    change([...tags, ...values]);
  };
  return (
    <>
      {/* Capture runs before the input's own paste handling, which would split at commas unasked; the key
          handler only sees what bubbles from the input after Mantine's own. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a layout-less wrapper of the input's own events */}
      <div onPasteCapture={bulk.onPasteCapture} onKeyDown={keepEnterInField} style={{ display: 'contents' }}>
        <TagsInput
          {...fieldProps(props)}
          placeholder={emptyText ?? props.placeholder}
          data={options.map((option) => ({ value: String(option.value), label: option.label }))}
          value={tags}
          onChange={change}
          onDuplicate={() => refuse('exists')}
          clearable={element.allowEmpty}
          {...inputProps}
        />
      </div>
      <BulkInsertDialog
        paste={bulk.paste}
        onMultiple={addPasted}
        onSingle={(text) => addPasted([text])}
        onCancel={bulk.close}
      />
    </>
  );
}
