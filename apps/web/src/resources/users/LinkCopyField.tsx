import { TextInput } from '@mantine/core';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../../components/copy/CopyValueButton';

/** §2.6 copy-text: a read-only link with a Copy button that turns the success colour for 1000 ms. */
export function LinkCopyField({ label, link }: { label: string; link: string }) {
  // The server gives a path when it does not know its public address; this browser does.
  const absolute = new URL(link, window.location.origin).toString();
  return (
    <TextInput
      label={label}
      value={absolute}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      rightSectionWidth={COPY_BUTTON_WIDTH}
      rightSection={<CopyValueButton value={absolute} />}
    />
  );
}
