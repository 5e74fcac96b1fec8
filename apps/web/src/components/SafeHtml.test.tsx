import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SafeHtml } from './SafeHtml';

describe('SafeHtml', () => {
  it('shows the formatting and drops what could run', () => {
    const { container } = render(
      <MantineProvider env="test">
        <SafeHtml html={'<p><strong>Bold</strong><img src="x" onerror="alert(1)"><script>alert(2)</script></p>'} />
      </MantineProvider>,
    );
    expect(screen.getByText('Bold').tagName).toBe('STRONG');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
  });
});
