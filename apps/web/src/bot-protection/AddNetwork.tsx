import { Button, Group, NumberInput, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { asnError, type BotProtectionEditor } from './useBotProtectionEditor';

/** One network typed in (ASN and name), added to the list to be saved with the other changes. */
export function AddNetwork({ editor }: { editor: BotProtectionEditor }) {
  const { t } = useTranslation('resources');
  const translate = useServerMessage();
  const [asn, setAsn] = useState<number | string>('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const invalid = asnError(asn);
    if (invalid) {
      setError(translate(invalid));
      return;
    }
    if (editor.add([{ asn: Number(asn), name: name.trim() }]) === 0) {
      setError(t('bot-protection.add.taken', { asn }));
      return;
    }
    setAsn('');
    setName('');
    setError(null);
  };
  return (
    <Group
      gap="sm"
      align="flex-start"
      wrap="wrap"
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        add();
      }}
    >
      <NumberInput
        label={t('bot-protection.columns.asn')}
        placeholder="16509"
        value={asn}
        onChange={(value) => {
          setAsn(value);
          setError(null);
        }}
        error={error}
        min={0}
        allowNegative={false}
        allowDecimal={false}
        hideControls
        dir="ltr"
        w={{ base: '100%', xs: 180 }}
      />
      <TextInput
        label={t('bot-protection.columns.name')}
        placeholder={t('bot-protection.add.namePlaceholder')}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        maxLength={200}
        w={{ base: '100%', xs: 280 }}
      />
      {/* Lined up with the inputs under their labels. */}
      <Button type="submit" variant="light" mt={{ base: 0, xs: 25 }} leftSection={<IconPlus size={16} aria-hidden />}>
        {t('bot-protection.add.button')}
      </Button>
    </Group>
  );
}
