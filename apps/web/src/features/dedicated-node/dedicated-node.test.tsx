/** The dedicated-node screens lead to each other (SPEC §2: a new node from the list, and back). */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { DedicatedNodeListPage } from './components/dedicated-node-list-page';
import { DedicatedNodeNewPage } from './components/dedicated-node-new-page';

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderAt(path: string, Page: ComponentType) {
  // As the app's providers: no space squeezed into two-character Chinese button names.
  return render(
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={<Page />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </ConfigProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

describe('dedicated-node links', () => {
  it.each([
    ['/rpc/dedicated-node', DedicatedNodeListPage, 'New dedicated node', '/rpc/dedicated-node/new'],
    [
      '/rpc/dedicated-node/new',
      DedicatedNodeNewPage,
      'Back to dedicated nodes',
      '/rpc/dedicated-node',
    ],
  ] as const)('%s links "%s" to %s', async (path, Page, name, target) => {
    renderAt(path, Page);
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', target);
    await userEvent.click(link);
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(target);
  });
});
