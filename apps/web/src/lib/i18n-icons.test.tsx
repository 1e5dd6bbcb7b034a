import { DeleteOutlined } from '@ant-design/icons';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Button, ConfigProvider, Input, Pagination, Result } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n, initI18n } from './i18n';
import { labelIcons, startIconLabels } from './i18n-icons';

function Page() {
  const { i18n: instance } = useTranslation();
  return (
    <ConfigProvider locale={instance.language === 'zh' ? zhCN : enUS}>
      <Result status="warning" title="Link expired" />
      <Pagination total={50} />
      <Input aria-label="Search keys" allowClear defaultValue="abc" />
      <Button icon={<DeleteOutlined />}>Delete key</Button>
      <Button icon={<DeleteOutlined aria-label="Remove line 1" />} />
    </ConfigProvider>
  );
}

let stop: () => void = () => {};

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
});

afterEach(() => {
  stop();
});

/** The accessible names antd's icons would give, had they kept their English file names. */
const exposedDefaultLabels = (root: ParentNode) =>
  [...root.querySelectorAll('span.anticon[aria-label]')]
    .filter((icon) => icon.classList.contains(`anticon-${icon.getAttribute('aria-label')}`))
    .map((icon) => icon.getAttribute('aria-label'));

describe('antd icon labels (item 3)', () => {
  it('hides decorative icons and leaves no English icon name behind', () => {
    const { container } = render(<Page />);
    expect(exposedDefaultLabels(container).length).toBeGreaterThan(0);
    stop = startIconLabels(container);
    expect(exposedDefaultLabels(container)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Delete key' })).toBeInTheDocument();
  });

  it('names icon-only controls from the title antd localises, or from the icons namespace', async () => {
    const { container } = render(<Page />);
    stop = startIconLabels(container);
    expect(screen.getByRole('button', { name: 'Previous Page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next Page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();

    await act(() => i18n.changeLanguage('zh'));
    await waitFor(() => expect(screen.getByRole('button', { name: '上一页' })).toBeInTheDocument());
    expect(screen.getByRole('button', { name: '下一页' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '清除' })).toBeInTheDocument();
    expect(exposedDefaultLabels(container)).toEqual([]);
  });

  it('keeps labels the app gave its icons', () => {
    const { container } = render(<Page />);
    labelIcons(container);
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeInTheDocument();
  });

  it('labels icons that appear later', async () => {
    const { container, rerender } = render(<div />);
    stop = startIconLabels(container);
    rerender(<Page />);
    await waitFor(() => expect(exposedDefaultLabels(container)).toEqual([]));
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
  });
});
