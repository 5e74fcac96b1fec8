import { Text, Title } from '@mantine/core';

/** The title and the line under it on every account page of the authentication layout. */
export function AccountPageHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div>
      <Title order={1} size="h3">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      )}
    </div>
  );
}
