import { Stack, TagsInput } from '@mantine/core';
import { fieldProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/** Typing or pasting several addresses at once splits them on these. */
const SEPARATORS = [',', ';', ' ', '\n'];

/**
 * `address-list`: IP addresses and CIDR ranges, one per entry (an affiliate network's postback
 * addresses). Pasted lists are split; an entry refused (`postback_ips.2`) is named in the message under
 * the field, since its pill cannot carry one. Value: string[].
 */
export function AddressListControl(props: FormControlProps) {
  const { element, value, onChange, placeholder, error, fieldErrors } = props;
  const addresses = Array.isArray(value) ? value.map(String) : [];
  // The example placeholder only while the list is empty: beside pills it reads as entries.
  const { placeholder: example, ...inputProps } = (element.input ?? {}) as { placeholder?: string };
  const refused = Object.entries(fieldErrors ?? {}).map(([path, message]) => {
    const address = addresses[Number(path.split('.')[0])];
    return address === undefined ? message : `${address}: ${message}`;
  });
  const messages = [...(error ? [error] : []), ...refused];
  return (
    <TagsInput
      {...fieldProps(props)}
      placeholder={addresses.length === 0 ? (placeholder ?? example) : undefined}
      value={addresses}
      onChange={(next) => onChange([...new Set(next.map((address) => address.trim()).filter(Boolean))])}
      splitChars={SEPARATORS}
      clearable
      error={
        messages.length > 0 ? (
          <Stack gap={0} component="span">
            {messages.map((message, index) => (
              // Messages may repeat (two addresses with one problem): the position keeps them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole on every change.
              <span key={index}>{message}</span>
            ))}
          </Stack>
        ) : undefined
      }
      inputWrapperOrder={['label', 'description', 'input', 'error']}
      {...inputProps}
    />
  );
}
