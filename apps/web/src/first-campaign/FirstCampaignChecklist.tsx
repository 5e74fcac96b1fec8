import { Anchor, Card, Group, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFirstCampaignSteps } from './useFirstCampaignSteps';

/**
 * "Your first campaign" on the dashboard: source, network, offer, flow, campaign,
 * first click, first conversion, each done or linking to where to do it. Shown until every step is done.
 */
export function FirstCampaignChecklist() {
  const { t } = useTranslation();
  const { steps } = useFirstCampaignSteps();
  if (!steps || steps.length === 0 || steps.every((step) => step.done)) return null;
  const done = steps.filter((step) => step.done).length;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="first-campaign-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id="first-campaign-title">
            {t('firstCampaign.title')}
          </Title>
          <Text size="sm">{t('firstCampaign.intro')}</Text>
        </div>
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={(done / steps.length) * 100}
            flex={1}
            aria-label={t('firstCampaign.progress', { done, total: steps.length })}
          />
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {t('firstCampaign.progress', { done, total: steps.length })}
          </Text>
        </Group>
        <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {steps.map((step) => (
            <Group
              component="li"
              key={step.key}
              gap="sm"
              wrap="nowrap"
              align="flex-start"
              data-step={step.key}
              data-done={step.done}
            >
              <ThemeIcon
                variant={step.done ? 'filled' : 'light'}
                color={step.done ? 'teal.8' : 'gray'}
                radius="xl"
                size="md"
                aria-hidden
              >
                {step.done ? <IconCheck size={16} /> : <IconCircleDashed size={16} />}
              </ThemeIcon>
              <div>
                {step.done ? (
                  <Text fw={600}>{t(`firstCampaign.steps.${step.key}.title`)}</Text>
                ) : (
                  <Anchor component={Link} to={step.to} fw={600}>
                    {t(`firstCampaign.steps.${step.key}.title`)}
                  </Anchor>
                )}
                <VisuallyHidden>{step.done ? t('firstCampaign.done') : t('firstCampaign.toDo')}</VisuallyHidden>
                <Text size="sm">{t(`firstCampaign.steps.${step.key}.hint`)}</Text>
              </div>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
