import { Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { visibleMenu } from '@switchyard/domain';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FirstCampaignChecklist } from '../../first-campaign/FirstCampaignChecklist';
import { useCan } from '../../shared/auth/useCan';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { menuIcon } from '../layout/menuIcons';

// The live stream's newest events, for the same readers as the figures.
const LiveTile = lazy(() => import('../../live/LiveTile').then((m) => ({ default: m.LiveTile })));

// Loaded on demand: the chart library is only needed by those who may see reports.
const DashboardFigures = lazy(() =>
  import('../../reports/DashboardFigures').then((m) => ({ default: m.DashboardFigures })),
);

/**
 * The welcome page: the first-campaign checklist until it is done, today’s figures and the live
 * events for those who may get reports, then the areas this user may open (§2.3).
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const canSeeReports = useCan('tracker', 'reports', 'get');
  const sections = visibleMenu(user).filter((section) => section.section && section.entries.length > 0);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {t('dashboard.welcome', { name: user?.name ?? '' })}
        </Title>
        <Text c="dimmed">{sections.length ? t('dashboard.intro') : t('dashboard.nothing')}</Text>
      </div>
      <FirstCampaignChecklist />
      {canSeeReports && (
        <Suspense fallback={<Skeleton h={360} radius="md" />}>
          <DashboardFigures />
        </Suspense>
      )}
      {canSeeReports && (
        <Suspense fallback={<Skeleton h={200} radius="md" />}>
          <LiveTile />
        </Suspense>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {sections.map((section) => (
          <Card key={section.section} withBorder padding="lg" radius="md">
            <Text fw={700} size="lg" mb="sm">
              {section.headingKey ? t(section.headingKey) : ''}
            </Text>
            <Stack gap="xs">
              {section.entries.map((entry) => {
                const Icon = menuIcon(entry.labelKey);
                return (
                  <Group key={entry.route} gap="sm" wrap="nowrap">
                    <ThemeIcon variant="light" size="md" aria-hidden>
                      <Icon size={16} />
                    </ThemeIcon>
                    <Anchor component={Link} to={entry.route}>
                      {t('dashboard.open', { name: t(entry.labelKey) })}
                    </Anchor>
                  </Group>
                );
              })}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
