import { notify } from '../../shared/notify';

export interface Notice {
  message: string;
  title?: string;
  kind?: 'success' | 'danger';
}

/** A success or failure notice of a list or form action, through the shell's `notify()` (§9: top right, 5000 ms). */
export function showNotice({ message, title, kind = 'success' }: Notice): void {
  notify({ message, title, type: kind });
}
