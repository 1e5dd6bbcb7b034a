/** The public pages' language menu: a WAI-ARIA menu button that switches the page's language by its path. */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { i18n, initI18n } from '../lib/i18n';
import { langFromPath } from '../lib/locale-path';
import { createQueryClient } from '../lib/query-client';
import { PlainLanguageSwitch } from './plain-language-switch';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

async function renderAt(path: string) {
  await i18n.changeLanguage(langFromPath(path));
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <PlainLanguageSwitch />
            <button type="button">elsewhere</button>
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

describe('PlainLanguageSwitch', () => {
  it('is a closed menu button until pressed; the current language is the checked item and takes focus', async () => {
    const user = userEvent.setup();
    await renderAt('/register');
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const items = screen.getAllByRole('menuitemradio');
    expect(items.map((i) => i.textContent)).toEqual(['English', '中文']);
    expect(items[0]).toHaveAttribute('aria-checked', 'true');
    expect(items[1]).toHaveAttribute('aria-checked', 'false');
    expect(items[0]).toHaveFocus();
  });

  it('moves with the arrows, Home and End (wrapping), and Escape closes it and returns focus', async () => {
    const user = userEvent.setup();
    await renderAt('/register');
    const button = screen.getByRole('button', { name: 'Language' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    const items = screen.getAllByRole('menuitemradio');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{End}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('choosing 中文 moves the page to its Chinese path; the menu then names itself in Chinese', async () => {
    const user = userEvent.setup();
    await renderAt('/register');
    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.click(screen.getByRole('menuitemradio', { name: '中文' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/zh/register'));
    const button = await screen.findByRole('button', { name: '语言' });
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(button);
    expect(screen.getByRole('menuitemradio', { name: '中文' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  it('a press outside closes it', async () => {
    const user = userEvent.setup();
    await renderAt('/');
    await user.click(screen.getByRole('button', { name: 'Language' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
