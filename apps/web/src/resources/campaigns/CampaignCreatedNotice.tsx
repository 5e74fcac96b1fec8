import { Alert, TextInput } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../../components/copy/CopyValueButton';

/** Shown on the screen a new tracker campaign lands on: the URL to give its traffic source, with Copy. */
export function CampaignCreatedNotice({ url }: { url: string }) {
  const { t } = useTranslation('resources');
  return (
    <Alert
      color="teal"
      variant="light"
      maw={760}
      icon={<IconCircleCheck aria-hidden />}
      title={t('tracker-campaigns.createdTitle')}
    >
      <TextInput
        label={t('tracker-campaigns.fields.campaign_url')}
        description={t('tracker-campaigns.campaignUrlHint')}
        value={url}
        readOnly
        dir="ltr"
        rightSectionWidth={COPY_BUTTON_WIDTH}
        rightSection={<CopyValueButton value={url} />}
      />
    </Alert>
  );
}
