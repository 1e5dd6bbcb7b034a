/**
 * The monthly spend limits card against a fake API, as billing.test.tsx: only callRpc is replaced, and every
 * call's params and every fake answer are checked against the contract's schemas.
 */
import type { TMethodName, TParamsIn, TSpendLimits } from '@rpc/contract';
import { METHODS } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider, message } from 'antd';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { BillingsPage } from './components/billings-page';
import { SpendLimitsCard } from './components/spend-limits-card';
import { dollarsToCents, percentUsed, wouldStopNow } from './utils/spend-limits';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

// --- The fake server ---

const NEXT_MONTH = new Date(2026, 1, 1, 0, 0).getTime();

function makeLimits(patch: Partial<TSpendLimits> = {}): TSpendLimits {
  return {
    monthlyRuCap: null,
    monthlyCentsCap: null,
    action: 'alert',
    alertPercents: [50, 80],
    month: { key: '2026-01', ruUsed: 500_000, centsSpent: 1234 },
    blockedUntil: null,
    ...patch,
  };
}

let limits: TSpendLimits;
type THandler = (params: never) => unknown;
let overrides: Partial<Record<TMethodName, THandler>> = {};

const handlers: Partial<Record<TMethodName, THandler>> = {
  hub_getSpendLimits: () => limits,
  // As the server: the saved settings, and the stop set at once when 'stop' meets a cap already reached.
  hub_setSpendLimits: (p: TParamsIn<'hub_setSpendLimits'>) => {
    const { month } = limits;
    const isOver =
      (p.monthlyRuCap !== null && month.ruUsed >= p.monthlyRuCap) ||
      (p.monthlyCentsCap !== null && month.centsSpent >= p.monthlyCentsCap);
    limits = {
      ...limits,
      ...METHODS.hub_setSpendLimits.params.parse(p),
      blockedUntil: p.action === 'stop' && isOver ? NEXT_MONTH : null,
    };
    return limits;
  },
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function renderPage(Page: ComponentType = SpendLimitsCard) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={['/rpc/billings']}>
          <Page />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

async function findCard(name = 'Monthly spend limits') {
  const card = within(await screen.findByRole('region', { name }));
  await card.findByRole('form');
  return card;
}

async function typeInto(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  if (text) await userEvent.type(input, text);
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  limits = makeLimits();
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(async (method, params) => {
    const def = METHODS[method];
    // The web app's params must be what the server accepts.
    def.params.parse(params);
    const handler = overrides[method] ?? handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    const answer = await handler(params as never);
    return def.result.parse(answer) as never;
  });
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('spend limits: this month and the caps', () => {
  it('shows this month’s RUs and money, each set cap as a labelled bar, and the saved settings', async () => {
    limits = makeLimits({
      monthlyRuCap: 2_000_000,
      monthlyCentsCap: 5000,
      alertPercents: [50, 80],
    });
    renderPage();
    expect(screen.getByRole('status', { name: 'Loading your spend limits…' })).toBeInTheDocument();
    const card = await findCard();
    expect(card.getByRole('heading', { name: 'This month so far (2026-01)' })).toBeInTheDocument();
    expect(card.getByText('500,000')).toBeInTheDocument();
    expect(card.getByText('$12.34')).toBeInTheDocument();

    const ruBar = card.getByRole('progressbar', { name: 'Monthly RU limit used' });
    expect(ruBar).toHaveAttribute('aria-valuenow', '25');
    expect(card.getByText('500,000 of 2,000,000 RUs')).toBeInTheDocument();
    const moneyBar = card.getByRole('progressbar', { name: 'Monthly spend limit used' });
    // 1234 of 5000 cents is 24.68%: whole percent, not rounded up to the next
    expect(moneyBar).toHaveAttribute('aria-valuenow', '24');
    expect(card.getByText('$12.34 of $50.00')).toBeInTheDocument();

    expect(card.getByRole('spinbutton', { name: 'Monthly RU limit' })).toHaveValue('2000000');
    expect(card.getByRole('spinbutton', { name: 'Monthly spend limit' })).toHaveValue('50.00');
    expect(card.getByRole('radio', { name: 'Alert only' })).toBeChecked();
    expect(card.getByRole('radio', { name: 'Stop my keys' })).toHaveAccessibleDescription(
      'Your keys stop answering until the month ends or you raise the limit.',
    );
    const alerts = within(card.getByRole('group', { name: 'Alert me at' }));
    expect(alerts.getByRole('checkbox', { name: '50%' })).toBeChecked();
    expect(alerts.getByRole('checkbox', { name: '80%' })).toBeChecked();
    expect(alerts.getByRole('checkbox', { name: '90%' })).not.toBeChecked();
    expect(alerts.getByRole('checkbox', { name: '100%' })).not.toBeChecked();
    expect(card.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('draws no bar for a cap that is not set, and says when none is', async () => {
    renderPage();
    const card = await findCard();
    expect(card.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(card.getByText('No monthly limit is set.')).toBeInTheDocument();
    expect(card.getByRole('spinbutton', { name: 'Monthly RU limit' })).toHaveValue('');
  });

  it('shows a full, failed bar when a cap is reached', async () => {
    limits = makeLimits({ monthlyRuCap: 400_000 });
    renderPage();
    const card = await findCard();
    const bar = card.getByRole('progressbar', { name: 'Monthly RU limit used' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveClass('ant-progress-status-exception');
  });

  it('says the keys are stopped, and until when, while a stop limit holds them', async () => {
    limits = makeLimits({ monthlyRuCap: 400_000, action: 'stop', blockedUntil: NEXT_MONTH });
    renderPage();
    const card = await findCard();
    expect(card.getByRole('alert')).toHaveTextContent(
      'Your keys are stopped until 2026-02-01 00:00 because a monthly limit was reached; raise the limit to resume.',
    );
  });

  it('shows an error with a retry when the limits cannot be loaded', async () => {
    overrides.hub_getSpendLimits = () => {
      throw new RpcCallError('hub_getSpendLimits', {
        code: 10500,
        message: 'Internal error',
        messageZh: '内部错误',
      });
    };
    renderPage();
    expect(await screen.findByText('Your spend limits could not be loaded.')).toBeInTheDocument();
    delete overrides.hub_getSpendLimits;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form')).toBeInTheDocument();
  });

  it('is on /rpc/billings', async () => {
    // Only this card is under test here; the page's other readers fail as a server error would.
    renderPage(BillingsPage);
    expect(await screen.findByRole('region', { name: 'Monthly spend limits' })).toBeInTheDocument();
  });
});

describe('spend limits: saving', () => {
  it.each([
    ['12.34', 1234],
    ['5', 500],
    ['0.1', 10],
    ['0.29', 29],
    ['', null],
  ] as const)('sends a spend limit of "%s" dollars as %s cents', async (typed, cents) => {
    limits = makeLimits({ monthlyCentsCap: 9900 });
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly spend limit' }), typed);
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    await waitFor(() =>
      expect(calls('hub_setSpendLimits')).toEqual([
        { monthlyRuCap: null, monthlyCentsCap: cents, action: 'alert', alertPercents: [50, 80] },
      ]),
    );
  });

  it('sends the exact settings, says so, and shows the saved limits without asking again', async () => {
    // antd's messages outlive a test's render, so what this save says is read from the call
    const success = vi.spyOn(message, 'success');
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly RU limit' }), '1500000');
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly spend limit' }), '12.34');
    await userEvent.click(card.getByRole('checkbox', { name: '50%' }));
    await userEvent.click(card.getByRole('checkbox', { name: '100%' }));
    await userEvent.click(card.getByRole('checkbox', { name: '90%' }));
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));

    await waitFor(() =>
      expect(calls('hub_setSpendLimits')).toEqual([
        {
          monthlyRuCap: 1_500_000,
          monthlyCentsCap: 1234,
          action: 'alert',
          alertPercents: [80, 90, 100],
        },
      ]),
    );
    await waitFor(() => expect(success).toHaveBeenCalledWith('Spend limits saved.'));
    // the answer is the new state of the card: no second read
    expect(await card.findByText('500,000 of 1,500,000 RUs')).toBeInTheDocument();
    expect(card.getByText('$12.34 of $12.34')).toBeInTheDocument();
    expect(calls('hub_getSpendLimits')).toHaveLength(1);
  });

  it('clears both caps to no limit', async () => {
    limits = makeLimits({ monthlyRuCap: 2_000_000, monthlyCentsCap: 5000 });
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly RU limit' }), '');
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly spend limit' }), '');
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    await waitFor(() =>
      expect(calls('hub_setSpendLimits')).toEqual([
        { monthlyRuCap: null, monthlyCentsCap: null, action: 'alert', alertPercents: [50, 80] },
      ]),
    );
  });

  it.each([
    ['Monthly RU limit', '0', 'Enter a whole number of RUs, at least 1, or leave it empty.'],
    ['Monthly RU limit', '1.5', 'Enter a whole number of RUs, at least 1, or leave it empty.'],
    [
      'Monthly spend limit',
      '0',
      'Enter an amount of at least 0.01 with at most 2 decimals, or leave it empty.',
    ],
  ] as const)('refuses %s "%s" with a message and sends nothing', async (field, typed, problem) => {
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: field }), typed);
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    expect(await card.findByText(problem)).toBeInTheDocument();
    expect(calls('hub_setSpendLimits')).toHaveLength(0);
  });
});

describe('spend limits: stopping the keys', () => {
  it('asks before saving stop with a cap this month has already reached, and sends nothing on cancel', async () => {
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly RU limit' }), '500000');
    await userEvent.click(card.getByRole('radio', { name: 'Stop my keys' }));
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));

    let dialog = await screen.findByRole('dialog', { name: 'Stop your keys now?' });
    expect(dialog).toHaveTextContent(/your keys will stop right away/);
    expect(calls('hub_setSpendLimits')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('hub_setSpendLimits')).toHaveLength(0);

    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    dialog = await screen.findByRole('dialog', { name: 'Stop your keys now?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and stop keys' }));
    await waitFor(() =>
      expect(calls('hub_setSpendLimits')).toEqual([
        { monthlyRuCap: 500_000, monthlyCentsCap: null, action: 'stop', alertPercents: [50, 80] },
      ]),
    );
    expect(await card.findByRole('alert')).toHaveTextContent(/stopped until 2026-02-01 00:00/);
  });

  it('asks when the money cap is the one already reached', async () => {
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly spend limit' }), '12.34');
    await userEvent.click(card.getByRole('radio', { name: 'Stop my keys' }));
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByRole('dialog', { name: 'Stop your keys now?' })).toBeInTheDocument();
    expect(calls('hub_setSpendLimits')).toHaveLength(0);
  });

  it.each([
    ['stop with caps above this month’s usage', 'Stop my keys', '500001', '12.35'],
    ['alert only with a cap already reached', 'Alert only', '100', '1.00'],
  ] as const)('saves %s without asking', async (_case, action, ru, dollars) => {
    limits = makeLimits({ action: 'stop' });
    renderPage();
    const card = await findCard();
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly RU limit' }), ru);
    await typeInto(card.getByRole('spinbutton', { name: 'Monthly spend limit' }), dollars);
    await userEvent.click(card.getByRole('radio', { name: action }));
    await userEvent.click(card.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(calls('hub_setSpendLimits')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('spend limits in Chinese', () => {
  it('names the card, the usage, the fields and the choices in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    limits = makeLimits({ monthlyRuCap: 2_000_000, blockedUntil: NEXT_MONTH, action: 'stop' });
    renderPage();
    const card = await findCard('每月消费限额');
    expect(card.getByRole('heading', { name: '本月至今（2026-01）' })).toBeInTheDocument();
    expect(card.getByText('已用 RU')).toBeInTheDocument();
    expect(card.getByText('已消费金额')).toBeInTheDocument();
    expect(card.getByRole('progressbar', { name: '每月 RU 限额已用' })).toBeInTheDocument();
    expect(card.getByRole('alert')).toHaveTextContent('您的密钥已停用至 2026-02-01 00:00');
    expect(card.getByRole('spinbutton', { name: '每月 RU 限额' })).toBeInTheDocument();
    expect(card.getByRole('spinbutton', { name: '每月消费限额' })).toBeInTheDocument();
    expect(card.getByRole('radiogroup', { name: '达到限额时' })).toBeInTheDocument();
    expect(card.getByRole('radio', { name: '仅提醒' })).not.toBeChecked();
    expect(card.getByRole('radio', { name: '停用我的密钥' })).toBeChecked();
    expect(card.getByRole('group', { name: '提醒阈值' })).toBeInTheDocument();
    expect(card.getByRole('button', { name: '保存限额' })).toBeInTheDocument();
  });
});

describe('spend limit utils', () => {
  it.each([
    ['12.34', 1234],
    ['0.29', 29],
    ['1.1', 110],
    ['7', 700],
    ['7.', 700],
    [' 3.50 ', 350],
    ['', null],
    [null, null],
    ['1.005', Number.NaN],
    ['-1', Number.NaN],
    ['1e3', Number.NaN],
    ['99999999999999999', Number.NaN],
  ] as const)('dollars %j are %s cents', (typed, cents) => {
    expect(dollarsToCents(typed)).toBe(cents);
  });

  it('measures whole percent used, full at or past the cap', () => {
    expect(percentUsed(1234, 5000)).toBe(24);
    expect(percentUsed(5000, 5000)).toBe(100);
    expect(percentUsed(9000, 5000)).toBe(100);
  });

  it('stops at once only with stop and a cap at or below this month’s usage', () => {
    const month = { key: '2026-01', ruUsed: 100, centsSpent: 50 };
    const at = (monthlyRuCap: number | null, monthlyCentsCap: number | null, action: string) =>
      wouldStopNow({ monthlyRuCap, monthlyCentsCap, action }, month);
    expect(at(100, null, 'stop')).toBe(true);
    expect(at(null, 50, 'stop')).toBe(true);
    expect(at(101, 51, 'stop')).toBe(false);
    expect(at(null, null, 'stop')).toBe(false);
    expect(at(100, 50, 'alert')).toBe(false);
  });
});
