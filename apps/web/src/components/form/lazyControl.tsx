import { Skeleton } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';
import type { FormControlProps } from './types';

/**
 * A control whose code (and its heavy library: the rich-text editor, the date picker) loads the first time
 * a form shows it, so lists and simple forms do not download it.
 */
export function lazyControl<K extends string>(
  load: () => Promise<Record<K, ComponentType<FormControlProps>>>,
  exportName: K,
): ComponentType<FormControlProps> {
  const Lazy = lazy<ComponentType<FormControlProps>>(() => load().then((module) => ({ default: module[exportName] })));
  function LazyControl(props: FormControlProps) {
    return (
      <Suspense fallback={<Skeleton height={36} radius="sm" aria-busy />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyControl.displayName = `Lazy(${exportName})`;
  return LazyControl;
}
