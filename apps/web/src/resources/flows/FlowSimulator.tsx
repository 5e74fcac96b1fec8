import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { getResource, type SimulationAnswer } from '@switchyard/domain';
import { IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookupRecords } from '../../api/useLookup';
import { useEditTabs } from '../../components/form/EditTabs';
import { CampaignSimulator } from '../campaigns/simulator/CampaignSimulator';
import type { CampaignKind } from '../campaigns/simulator/useSimulation';

const key = (name: string) => `resources:simulator.${name}`;

/**
 * The routing simulator in the flow editor: a visitor is routed through one campaign that uses the flow, as both are
 * saved, since the server simulates campaigns, not flows. Each answer marks the flow's own builder
 * (`onAnswer`), shown on the form by "Show on the flow".
 */
export function FlowSimulator({
  kind,
  flowId,
  onAnswer,
}: {
  kind: CampaignKind;
  flowId: string;
  onAnswer?: (answer: SimulationAnswer) => void;
}) {
  const { t } = useTranslation();
  const tabs = useEditTabs();
  const campaigns = useLookupRecords(getResource(kind === 'tracker' ? 'tracker-campaigns' : 'campaigns'));
  const options = campaigns
    .filter((campaign) => campaign.flow_external_id === flowId && typeof campaign.external_id === 'string')
    .map((campaign) => ({ value: String(campaign.external_id), label: String(campaign.name ?? campaign.external_id) }));
  const [picked, setPicked] = useState<string | null>(null);
  const campaignId = picked ?? options[0]?.value ?? null;
  if (options.length === 0) return <Text c="dimmed">{t(key('noCampaign'))}</Text>;
  return (
    <Stack gap="md" maw={960}>
      <Select
        label={t(key('campaign'))}
        description={t(key('campaignHint'))}
        data={options}
        value={campaignId}
        onChange={setPicked}
        allowDeselect={false}
        maw={480}
      />
      {campaignId && (
        <CampaignSimulator
          key={campaignId}
          kind={kind}
          campaignId={campaignId}
          onAnswer={onAnswer}
          resultActions={
            tabs && (
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconRoute size={16} aria-hidden />}
                  onClick={() => tabs.show('form')}
                >
                  {t(key('showOnFlow'))}
                </Button>
              </Group>
            )
          }
        />
      )}
    </Stack>
  );
}
