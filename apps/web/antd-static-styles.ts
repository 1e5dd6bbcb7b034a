/**
 * antd's component styles, generated at build time (antd-styles-plugin.ts) instead of in the browser.
 *
 * antd 5 builds each component's CSS in JS on first render (@ant-design/cssinjs `useStyleRegister`: the style
 * object, then stylis, then a `<style>` per component), ≈ 150 ms of the dashboard's cold render. Before generating
 * one, `useStyleRegister` looks its path (token key | component | prefixes) up in a map that it reads once, on
 * first use, from the `content` of a `.data-ant-cssinjs-cache-path` rule; a path marked there is taken as coming
 * from a CSS file and nothing is generated or inserted. `extractStyle` writes that rule after the CSS it extracts.
 *
 * So: render every antd component the app uses, inside the app's own ConfigProvider settings (antd-scope.tsx:
 * THEME, BUTTON_CONFIG), with react-dom/server into a fresh cssinjs cache, and extract it. A
 * component missing here, or one under a ConfigProvider with another theme, has another path and is generated at
 * run time as before; antd-static-styles.unit.test.ts checks that every antd component the app imports is covered
 * or named there as left to run time. Left to run time on purpose: DatePicker (≈ 105 KB of CSS, two pages), Steps
 * and Segmented (one page each), so that every antd page does not load their CSS. The file is ≈ 590 KB of CSS
 * once minified, ≈ 54 KB gzipped; the dashboard's first screen would generate most of it in the browser anyway.
 * Popups are rendered through antd's static panels (`_InternalPanelDoNotUseOrYouWillBeFired`, what antd's own
 * static extraction uses), since an open popup renders nothing outside a browser.
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import { createElement as h, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { BUTTON_CONFIG, THEME } from './src/components/antd-theme';

type TAnyComponent = ComponentType<Record<string, unknown>>;

const {
  Alert,
  App,
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Col,
  ConfigProvider,
  Descriptions,
  Divider,
  Drawer,
  Dropdown,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Layout,
  Modal,
  Pagination,
  Popconfirm,
  Progress,
  Radio,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Spin,
  Statistic,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  Upload,
  message,
  notification,
} = antd;

/** antd's static panel of a popup component (renders the popup's content in place, with its styles). */
function panel(component: unknown): TAnyComponent {
  const found = (component as { _InternalPanelDoNotUseOrYouWillBeFired?: TAnyComponent })
    ._InternalPanelDoNotUseOrYouWillBeFired;
  if (!found) throw new Error('antd no longer has the static panel this extraction relies on');
  return found;
}

const OPTIONS = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
];

/** One of each antd component and variant the app renders (the names antd-static-styles.unit.test.ts checks). */
function everyComponent(): ReactNode[] {
  const row = { key: 1, a: 'x' };
  return [
    h(Alert, { message: 'm', type: 'info', showIcon: true, closable: true }),
    h(Avatar, null, 'A'),
    h(Badge, { count: 1 }, h('span', null, 'b')),
    h(Badge, { status: 'success', text: 's' }),
    h(Button, { type: 'primary' }, 'b'),
    h(Card, { title: 't', extra: 'e' }, 'c'),
    h(Checkbox, null, 'c'),
    h(Checkbox.Group, { options: OPTIONS }),
    h(Row, null, h(Col, { span: 12 }, 'c')),
    h(Descriptions, { items: [{ key: 'a', label: 'l', children: 'c' }], bordered: true }),
    h(Divider, null),
    h(Drawer, { open: false }),
    h(Dropdown, { menu: { items: [{ key: 'a', label: 'a' }] }, open: false }, h('span', null, 'd')),
    h(Empty, null),
    h(Empty, { image: Empty.PRESENTED_IMAGE_SIMPLE }),
    h(Flex, { gap: 8 }, 'f'),
    h(
      Form,
      { layout: 'vertical' },
      h(Form.Item, { label: 'l', help: 'h', validateStatus: 'error' }, h(Input, null)),
    ),
    h(Input, null),
    h(Input.Password, null),
    h(Input.Search, { enterButton: true }),
    h(Input.TextArea, null),
    h(InputNumber, null),
    h(Layout, null, h(Layout.Header, null), h(Layout.Content, null)),
    h(Modal, { open: false }),
    h(Pagination, { total: 100 }),
    h(Popconfirm, { title: 't' }, h('span', null, 'p')),
    h(Progress, { percent: 50 }),
    h(Progress, { type: 'circle', percent: 50 }),
    h(Radio, null, 'r'),
    h(Radio.Group, { options: OPTIONS, optionType: 'button' }),
    h(Result, { status: 'success', title: 't' }),
    h(Result, { status: '404', title: 't' }),
    h(Select, { options: OPTIONS }),
    h(Skeleton, { active: true }),
    h(Skeleton.Input, { active: true }),
    h(Space, null, 's'),
    h(Space.Compact, null, h(Input, null), h(Button, null, 'b')),
    h(Spin, null),
    h(Statistic, { title: 't', value: 1 }),
    h(Switch, null),
    h(Table, {
      dataSource: [row],
      columns: [{ dataIndex: 'a', title: 'A', sorter: true, filters: [{ text: 'x', value: 'x' }] }],
      rowSelection: {},
      expandable: { expandedRowRender: () => 'e' },
      scroll: { x: 400, y: 200 },
    }),
    h(Tabs, { items: [{ key: 'a', label: 'a', children: 'c' }] }),
    h(Tag, { color: 'success' }, 't'),
    h(Tooltip, { title: 't' }, h('span', null, 't')),
    h(Typography.Title, null, 't'),
    h(Typography.Paragraph, { copyable: true, ellipsis: true }, 'p'),
    h(Typography.Text, { code: true }, 't'),
    h(Typography.Link, null, 'l'),
    h(Upload, null, h(Button, null, 'u')),
    h(panel(message), { type: 'success', content: 'm' }),
    h(panel(notification), { type: 'success', message: 'm' }),
  ];
}

/**
 * The CSS of every component above under the app's ConfigProvider settings, plain (no `<style>` wrapper), ending
 * with the cache-path rule that tells `useStyleRegister` which paths it holds.
 */
export function extractAntdStyles(): string {
  const cache = createCache();
  renderToString(
    h(
      StyleProvider,
      { cache },
      h(ConfigProvider, { theme: THEME, button: BUTTON_CONFIG }, h(App, null, ...everyComponent())),
    ),
  );
  return extractStyle(cache, { plain: true, types: ['style', 'token'] });
}
