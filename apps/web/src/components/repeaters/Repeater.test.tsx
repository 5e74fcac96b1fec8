import { TextInput } from '@mantine/core';
import { act, fireEvent, renderHook, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import type { FormControlProps } from '../form/types';
import { Repeater } from './Repeater';
import { renderControl } from './renderControl';
import { useRepeaterRows } from './useRepeaterRows';

interface Landing {
  name: string;
  weight: number;
}

function LandingsControl({ value, onChange, element, disabled }: FormControlProps) {
  return (
    <Repeater<Landing>
      rows={value as Landing[]}
      onChange={onChange}
      createRow={() => ({ name: '', weight: 100 })}
      maxRows={element.numberMax}
      hideAdd={element.input?.hideAdd === true}
      label="Landings"
      disabled={disabled}
      renderRow={(row, index, update) => (
        <TextInput
          aria-label={`Name ${index + 1}`}
          value={row.name}
          onChange={(event) => update({ ...row, name: event.currentTarget.value })}
        />
      )}
    />
  );
}

const names = () => screen.getAllByRole('textbox').map((input) => (input as HTMLInputElement).value);

describe('Repeater', () => {
  it('shows the empty text and an Add button that appends a row', () => {
    const view = renderControl(LandingsControl, []);
    expect(screen.getByText('No rows yet.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(view.last()).toEqual([{ name: '', weight: 100 }]);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('duplicates a row as a separate copy at the end', () => {
    const view = renderControl(LandingsControl, [
      { name: 'first', weight: 10 },
      { name: 'second', weight: 20 },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    expect(view.last()).toEqual([
      { name: 'first', weight: 10 },
      { name: 'second', weight: 20 },
      { name: 'first', weight: 10 },
    ]);
    expect(names()).toEqual(['first', 'second', 'first']);

    // The copy is its own row: editing it leaves the original alone.
    fireEvent.change(screen.getByLabelText('Name 3'), { target: { value: 'copy' } });
    expect(view.last()).toEqual([
      { name: 'first', weight: 10 },
      { name: 'second', weight: 20 },
      { name: 'copy', weight: 10 },
    ]);
  });

  it('deletes the row whose button says its position, keeping the other inputs as they are', () => {
    const view = renderControl(LandingsControl, [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 2 },
      { name: 'c', weight: 3 },
    ]);
    const third = screen.getByLabelText('Name 3');
    fireEvent.click(screen.getByRole('button', { name: 'Delete row 2' }));
    expect(view.last()).toEqual([
      { name: 'a', weight: 1 },
      { name: 'c', weight: 3 },
    ]);
    // Stable row keys: the row that was third is the same DOM node, now second.
    expect(screen.getByLabelText('Name 2')).toBe(third);
  });

  it('labels every drag handle for the keyboard', () => {
    renderControl(LandingsControl, [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 2 },
    ]);
    const list = screen.getByRole('list', { name: 'Landings' });
    for (const name of ['Move row 1', 'Move row 2']) {
      const handle = within(list).getByRole('button', { name });
      expect(handle).toBeVisible();
      // Reachable with Tab, and announced as a row that moves (dnd-kit's keyboard sensor takes it from there).
      expect(handle).toHaveAttribute('tabindex', '0');
      expect(handle).toHaveAttribute('aria-roledescription', 'movable row');
    }
  });

  it('hides Add and Duplicate at the maximum, and Add when asked to', () => {
    renderControl(LandingsControl, [{ name: 'a', weight: 1 }], { element: { numberMax: 2 } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Duplicate row/ })).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('can run without an Add button', () => {
    renderControl(LandingsControl, [], { element: { input: { hideAdd: true } } });
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });

  it('hides every row action when disabled', () => {
    renderControl(
      LandingsControl,
      [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 2 },
      ],
      { disabled: true },
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('speaks the interface language, Arabic included', async () => {
    await act(() => i18n.changeLanguage('ar'));
    try {
      renderControl(LandingsControl, [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 2 },
      ]);
      expect(screen.getByRole('button', { name: 'حذف الصف 2' })).toBeVisible();
      expect(screen.getByRole('button', { name: 'إضافة' })).toBeVisible();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});

describe('useRepeaterRows', () => {
  it('moves rows and their keys together', () => {
    let rows = ['a', 'b', 'c'];
    const { result, rerender } = renderHook(() =>
      useRepeaterRows({ rows, onChange: (next) => (rows = next), createRow: () => '' }),
    );
    const [keyA, keyB, keyC] = result.current.keys;
    act(() => result.current.move(0, 2));
    rerender();
    expect(rows).toEqual(['b', 'c', 'a']);
    expect(result.current.keys).toEqual([keyB, keyC, keyA]);
  });
});
