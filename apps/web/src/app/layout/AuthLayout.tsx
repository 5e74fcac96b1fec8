import { Center, Group, Paper, Stack } from '@mantine/core';
import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { LanguageMenu } from './LanguageMenu';
import { Logo } from './Logo';

/** §2.2: authentication pages use their own layout — a centred card, no menu. */
export function AuthLayout() {
  return (
    <div className="sy-auth">
      <Group component="header" justify="space-between" px="lg" py="md">
        <Logo />
        <LanguageMenu />
      </Group>
      <Center component="main" className="sy-auth-main" px="md">
        <Stack w="100%" maw={420}>
          <Paper withBorder shadow="sm" radius="lg" p="xl">
            <Outlet />
          </Paper>
        </Stack>
      </Center>
      <Footer />
    </div>
  );
}
