import { ActionIcon } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';

interface ExpandToggleProps {
  expanded: boolean;
  onToggle: () => void;
  /** Names the row it opens, e.g. "Details of Path group 1". */
  label: string;
  controls: string;
}

/** Opens and closes a row's fields; the chevron turns, which reads the same in RTL. */
export function ExpandToggle({ expanded, onToggle, label, controls }: ExpandToggleProps) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      onClick={onToggle}
      aria-expanded={expanded}
      aria-controls={controls}
      aria-label={label}
    >
      <IconChevronDown
        size={16}
        aria-hidden
        style={{ transform: expanded ? 'rotate(180deg)' : undefined, transition: 'transform 150ms ease' }}
      />
    </ActionIcon>
  );
}
