import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ScreenBreadcrumbs } from './ScreenBreadcrumbs';

/** Dashboard › title, then the screen's title, what it is for, and its actions at the end of the line. */
export function ScreenHeader({ title, intro, actions }: { title: string; intro: ReactNode; actions?: ReactNode }) {
  return (
    <>
      <ScreenBreadcrumbs title={title} />
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm" maw={720}>
            {intro}
          </Text>
        </div>
        {actions}
      </Group>
    </>
  );
}
