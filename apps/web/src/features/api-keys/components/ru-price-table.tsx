/**
 * The RU price of every method in one scrolling table, grouped (network, fees, state, blocks, …) and searchable:
 * a developer finds a method by name or by what it does, without paging.
 */
import { Empty, Input, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPricedMethod } from '../utils/method-groups';
import { groupMethods } from '../utils/method-groups';

const cell: CSSProperties = { padding: '6px 12px', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' };
const head: CSSProperties = {
  ...cell,
  position: 'sticky',
  top: 0,
  zIndex: 2,
  background: '#fafafa',
  fontWeight: 600,
};
const groupHead: CSSProperties = {
  ...cell,
  position: 'sticky',
  top: 33,
  zIndex: 1,
  background: '#f0f5ff',
  fontWeight: 600,
  textAlign: 'left',
};

export function RuPriceTable({
  methods,
  isLoading,
  formatNumber,
}: {
  methods: readonly TPricedMethod[];
  isLoading: boolean;
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('api-keys');
  const [search, setSearch] = useState('');
  const countId = useId();
  const groups = useMemo(() => groupMethods(methods, search), [methods, search]);
  const shown = groups.reduce((n, g) => n + g.methods.length, 0);

  return (
    <>
      <Input.Search
        aria-label={t('ruTable.search')}
        aria-describedby={countId}
        placeholder={t('ruTable.search')}
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 320, marginBottom: 8 }}
      />
      <Typography.Paragraph id={countId} type="secondary" style={{ margin: '0 0 8px' }}>
        {search.trim()
          ? t('ruTable.shown', { count: shown, total: methods.length })
          : t('ruTable.total', { count: methods.length })}
      </Typography.Paragraph>
      {shown === 0 && !isLoading ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ruTable.noMatch')} />
      ) : (
        <div
          // One scroll for the whole table; the header and each group's name stay in view.
          tabIndex={0}
          role="region"
          aria-label={t('ruTable.title')}
          aria-busy={isLoading}
          style={{ maxHeight: 480, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 8 }}
        >
          <table style={{ width: '100%', borderCollapse: 'separate', borderSpacing: 0 }}>
            <thead>
              <tr>
                <th scope="col" style={{ ...head, textAlign: 'left' }}>
                  {t('ruTable.method')}
                </th>
                <th scope="col" style={{ ...head, textAlign: 'right' }}>
                  {t('ruTable.ru')}
                </th>
              </tr>
            </thead>
            {groups.map(({ group, methods: list }) => (
              <tbody key={group}>
                <tr>
                  <th scope="rowgroup" colSpan={2} style={groupHead}>
                    {t(`ruTable.groups.${group}`)}{' '}
                    <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
                      ({formatNumber(list.length)})
                    </Typography.Text>
                  </th>
                </tr>
                {list.map((m) => (
                  <tr key={m.method}>
                    <td style={cell}>
                      <Typography.Text code>{m.method}</Typography.Text>
                    </td>
                    <td style={{ ...cell, textAlign: 'right' }}>{formatNumber(m.ru)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </>
  );
}
