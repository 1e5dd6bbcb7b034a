/**
 * "Using the gateway": the documentation a developer needs to call the endpoints, in the console and in both
 * languages: URLs, code examples with the user's own endpoint, requests and batches, WebSocket, limits, every error
 * the gateway answers, what is charged, and a link to the console API's reference.
 * The codes and statuses are the gateway's own (docs/decisions/gateway-design.md, "Order of checks").
 */
import type { TChain } from '@rpc/contract';
import { Card, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFocusableScrollBox } from '../../../components/paged-table';
import { LocalizedLink } from '../../../lib/locale-path';
import { defaultChainId } from './chain-endpoints';
import { GuideCodeExamples, placeholderUrl } from './guide-code-examples';

/** Every error the gateway itself answers: HTTP status, JSON-RPC code, and the key of its explanation. */
export const GATEWAY_ERRORS = [
  { status: '400', code: -32700, key: 'parse' },
  { status: '400 / 413 / 415', code: -32600, key: 'invalidRequest' },
  { status: '400', code: -32601, key: 'methodNotOffered' },
  { status: '401', code: -32003, key: 'invalidKey' },
  { status: '402', code: -32006, key: 'noRu' },
  { status: '403', code: -32004, key: 'notAllowed' },
  { status: '404', code: -32001, key: 'unknownChain' },
  { status: '429', code: -32005, key: 'rateLimited' },
  { status: '502', code: -32010, key: 'upstream' },
  { status: '503', code: -32002, key: 'chainUnavailable' },
] as const;

const h2 = { margin: 0, fontSize: 16 } as const;

export function GatewayGuide({ chains }: { chains: readonly TChain[] }) {
  const { t } = useTranslation('api-keys');
  const errorsBoxRef = useFocusableScrollBox();
  const chain = chains.find((c) => c.id === defaultChainId(chains));
  const placeholder = t('guide.keyPlaceholder');
  const example = chain
    ? {
        http: placeholderUrl(chain.httpUrlTemplate, placeholder),
        ws: placeholderUrl(chain.wsUrlTemplate, placeholder),
      }
    : null;
  const list = (keys: readonly string[]) => (
    <ul style={{ margin: 0, paddingLeft: 20 }}>
      {keys.map((key) => (
        <li key={key}>{t(key)}</li>
      ))}
    </ul>
  );

  return (
    <Flex vertical gap={16}>
      <Card title={<h2 style={h2}>{t('guide.endpoints.title')}</h2>}>
        <Typography.Paragraph>{t('guide.endpoints.text')}</Typography.Paragraph>
        {example ? (
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            <li>
              {t('guide.endpoints.https')} <Typography.Text code>{example.http}</Typography.Text>
            </li>
            <li>
              {t('guide.endpoints.wss')} <Typography.Text code>{example.ws}</Typography.Text>
            </li>
          </ul>
        ) : null}
      </Card>
      <Card title={<h2 style={h2}>{t('guide.examples.title')}</h2>}>
        <GuideCodeExamples chains={chains} />
      </Card>
      <Card title={<h2 style={h2}>{t('guide.requests.title')}</h2>}>
        {list([
          'guide.requests.post',
          'guide.requests.batch',
          'guide.requests.size',
          'guide.requests.browser',
        ])}
      </Card>
      <Card title={<h2 style={h2}>{t('guide.websocket.title')}</h2>}>
        {list(['guide.websocket.subscribe', 'guide.websocket.cost', 'guide.websocket.caps'])}
      </Card>
      <Card title={<h2 style={h2}>{t('guide.limits.title')}</h2>}>
        {list(['guide.limits.rates', 'guide.limits.over', 'guide.limits.noRu'])}
        <Typography.Paragraph style={{ margin: '8px 0 0' }}>
          <LocalizedLink to="/rpc/endpoint?tab=limits">{t('guide.limits.link')}</LocalizedLink>
        </Typography.Paragraph>
      </Card>
      <Card title={<h2 style={h2}>{t('guide.errors.title')}</h2>}>
        <Typography.Paragraph>{t('guide.errors.intro')}</Typography.Paragraph>
        {/* the table scrolls sideways on narrow screens: its box then takes focus (axe scrollable-region-focusable) */}
        <div ref={errorsBoxRef}>
          <Table
            rowKey="code"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={GATEWAY_ERRORS.map((e) => ({ ...e }))}
            columns={[
              { key: 'status', title: t('guide.errors.status'), dataIndex: 'status' },
              {
                key: 'code',
                title: t('guide.errors.code'),
                dataIndex: 'code',
                render: (code: number) => <Typography.Text code>{code}</Typography.Text>,
              },
              {
                key: 'meaning',
                title: t('guide.errors.meaning'),
                render: (_v, e) => t(`guide.errors.rows.${e.key}.meaning`),
              },
              {
                key: 'action',
                title: t('guide.errors.action'),
                render: (_v, e) => t(`guide.errors.rows.${e.key}.action`),
              },
            ]}
          />
        </div>
        <Typography.Paragraph style={{ margin: '12px 0 0' }}>
          {t('guide.errors.node')}
        </Typography.Paragraph>
      </Card>
      <Card title={<h2 style={h2}>{t('guide.charges.title')}</h2>}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('guide.charges.text')}</Typography.Paragraph>
      </Card>
      <Card title={<h2 style={h2}>{t('guide.reference.title')}</h2>}>
        <Typography.Paragraph>{t('guide.reference.text')}</Typography.Paragraph>
        <Typography.Paragraph style={{ margin: 0 }}>
          <LocalizedLink to="/rpc/api-reference">{t('guide.reference.link')}</LocalizedLink>
        </Typography.Paragraph>
      </Card>
    </Flex>
  );
}
