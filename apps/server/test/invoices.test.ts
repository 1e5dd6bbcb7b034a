/**
 * Invoices on each test database: billing details (validated, nothing lost on bad input), an invoice per paid
 * purchase with the details and line as they were, the list and one invoice of the acting account only, public
 * codes (hashed at rest, rotated, revoked) and a team's own invoices. Numbering: invoice-numbers.test.ts; PDF:
 * invoice-pdf.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ERROR_CODES, type TInvoiceConfigInput } from '@rpc/contract';
import { accountMembers, accounts, invoices, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { invoiceTestKit } from './helpers/invoices';

const DETAILS: TInvoiceConfigInput = {
  name: 'Ada Lovelace',
  company: 'Analytical Engines Ltd. 分析机有限公司',
  addressLine1: '12 St James’s Square',
  addressLine2: '',
  city: 'London',
  state: '',
  postalCode: 'SW1Y 4JH',
  country: 'United Kingdom',
  taxId: 'GB 123 4567 89',
  email: 'billing@engines.example',
};

describe.each(TEST_DATABASES)('invoices on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  const kit = invoiceTestKit(() => h);
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function paidInvoice() {
    const u = await kit.user();
    await kit.credit(u.accountId, 10_000);
    const purchase = await kit.buy(u.token);
    const [invoice] = (await kit.invoicesOf(u.token)).list;
    return { u, purchase, invoice: invoice! };
  }

  describe('billing details', () => {
    it('start empty, save trimmed, and change only the fields given', async () => {
      const u = await kit.user();
      const empty = await h.call('hub_getUserInvoiceConfig', {}, { token: u.token });
      expect(empty.result).toMatchObject({ name: '', email: '', taxId: '', updatedAt: null });

      const saved = await h.call(
        'hub_updateUserInvoiceConfig',
        { ...DETAILS, name: '  Ada Lovelace  ' },
        { token: u.token },
      );
      expect(saved.result).toEqual({ ...DETAILS, updatedAt: h.clock.now() });
      const partial = await h.call(
        'hub_updateUserInvoiceConfig',
        { city: 'Cambridge' },
        { token: u.token },
      );
      expect(partial.result).toMatchObject({ ...DETAILS, city: 'Cambridge' });
      expect((await h.call('hub_getUserInvoiceConfig', {}, { token: u.token })).result).toEqual(
        partial.result,
      );
    });

    let victim: { token: string } | undefined;
    it.each([
      ['nul byte', { name: 'a\u0000b' }],
      ['control character', { company: 'a\u0007b' }],
      ['new line', { addressLine1: 'line\nbreak' }],
      ['bidi override', { name: 'abc\u202Egnp.exe' }],
      ['zero-width space', { city: 'Lon\u200Bdon' }],
      ['too long', { name: 'x'.repeat(101) }],
      ['huge', { addressLine1: 'x'.repeat(60_000) }],
      ['not an e-mail', { email: 'not-an-email' }],
      ['e-mail with a script', { email: '<script>@x.example' }],
      ['tax id with symbols', { taxId: "1' OR 1=1 --" }],
      ['postal code with symbols', { postalCode: '<b>' }],
      ['wrong type', { country: 42 }],
      ['object', { name: { $ne: 1 } }],
      ['array', { name: ['a'] }],
      ['good fields with one bad', { ...DETAILS, name: 'Someone Else', email: 'x@' }],
    ])('refuses %s with 10004 and keeps what was saved', async (_name, params) => {
      victim ??= await (async () => {
        const u = await kit.user();
        await h.call('hub_updateUserInvoiceConfig', DETAILS, { token: u.token });
        return u;
      })();
      const res = await h.raw(
        { method: 'hub_updateUserInvoiceConfig', params, id: 3 },
        { token: victim.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(res.error?.details?.length).toBeGreaterThan(0);
      const after = await h.call('hub_getUserInvoiceConfig', {}, { token: victim.token });
      expect(after.result).toMatchObject(DETAILS);
    });

    it('take the longest value allowed and clear a field with ""', async () => {
      const u = await kit.user();
      const long = { name: 'n'.repeat(100), email: `${'e'.repeat(60)}@example.com` };
      expect(
        (await h.call('hub_updateUserInvoiceConfig', long, { token: u.token })).result,
      ).toMatchObject(long);
      expect(
        (await h.call('hub_updateUserInvoiceConfig', { email: '' }, { token: u.token })).result,
      ).toMatchObject({ name: long.name, email: '' });
    });
  });

  describe('issuing', () => {
    it('issues one invoice per paid purchase, copying the details and line as they were', async () => {
      const u = await kit.user();
      await h.call('hub_updateUserInvoiceConfig', DETAILS, { token: u.token });
      await kit.credit(u.accountId, 10_000);
      const purchase = await kit.buy(u.token);
      // Later edits reach later invoices only.
      await h.call('hub_updateUserInvoiceConfig', { name: 'Someone Else' }, { token: u.token });

      const list = await kit.invoicesOf(u.token);
      expect(list.total).toBe(1);
      const year = new Date(h.clock.now()).getUTCFullYear();
      expect(list.list[0]).toMatchObject({
        number: `INV-${year}-000001`,
        channel: 'crypto',
        purchaseId: purchase.id,
        itemName: purchase.skuName,
        totalCents: 4900,
        publicLinkCreatedAt: null,
      });
      const view = await h.call(
        'hub_getInvoiceView',
        { invoiceId: list.list[0]!.id },
        { token: u.token },
      );
      expect(view.result).toMatchObject({
        status: 'paid',
        currency: 'USD',
        buyer: DETAILS,
        seller: { name: 'RPC Console', email: 'support@localhost' },
        lines: [{ skuId: 'standard-100m', ru: 100_000_000, quantity: 1, unitCents: 4900 }],
        subtotalCents: 4900,
        discountCents: 0,
        totalCents: await kit.ledgerPaid(u.accountId, purchase.id),
      });
    });

    it('keeps the seller an invoice was issued with when the operator changes its details', async () => {
      const u = await kit.user();
      await kit.credit(u.accountId, 20_000);
      const config = h.server.deps.config;
      const before = config.invoiceSeller;
      const first = await kit.buy(u.token);
      const renamed = {
        name: 'Renamed Operator Ltd.',
        addressLines: ['2 New Street', 'Singapore'],
        email: 'billing@renamed.test',
        taxId: 'SG-NEW-1',
      };
      config.invoiceSeller = renamed;
      try {
        const second = await kit.buy(u.token);
        const { list } = await kit.invoicesOf(u.token);
        const sellerOf = async (purchaseId: string) => {
          const invoiceId = list.find((i) => i.purchaseId === purchaseId)!.id;
          const view = await h.call('hub_getInvoiceView', { invoiceId }, { token: u.token });
          return view.result!.seller;
        };
        expect(await sellerOf(first.id)).toEqual(before);
        expect(await sellerOf(second.id)).toEqual(renamed);
      } finally {
        config.invoiceSeller = before;
      }
    });

    it('issues none for a free claim and lists nothing for a new account', async () => {
      const u = await kit.user();
      const free = await h.call(
        'hub_getFreeSkuBuyFreeType',
        { skuId: 'free-monthly' },
        { token: u.token },
      );
      expect(free.ok).toBe(true);
      expect(await kit.invoicesOf(u.token)).toMatchObject({ list: [], total: 0 });
    });

    it('pages and filters like the other wallet histories', async () => {
      const u = await kit.user();
      await kit.credit(u.accountId, 100_000);
      for (let i = 0; i < 3; i++) await kit.buy(u.token);
      const page2 = await h.call(
        'hub_getUserInvoice',
        { page: 2, perPage: 2, sort: 'asc' },
        { token: u.token },
      );
      expect(page2.result).toMatchObject({ total: 3, page: 2, perPage: 2 });
      expect(page2.result!.list.map((i) => i.number.slice(-1))).toEqual(['3']);
      const cards = await h.call('hub_getUserInvoice', { channel: 'card' }, { token: u.token });
      expect(cards.result).toMatchObject({ list: [], total: 0 });
    });
  });

  describe('access', () => {
    it('answers another account’s invoice id as not found, in every method', async () => {
      const { invoice } = await paidInvoice();
      const stranger = await kit.user();
      for (const invoiceId of [invoice.id, randomUUID()]) {
        for (const method of [
          'hub_getInvoiceView',
          'hub_getInvoicePreviewCode',
          'hub_getInvoicePdf',
        ] as const) {
          const res = await h.call(method, { invoiceId }, { token: stranger.token });
          expect(res.error?.code, method).toBe(ERROR_CODES.NOT_FOUND);
        }
      }
      const [row] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(row!.publicCodeHash).toBeNull();
    });

    it.each([
      ['hub_getUserInvoice', { perPage: 101 }],
      ['hub_getUserInvoice', { page: 0 }],
      ['hub_getUserInvoice', { channel: 'bitcoin' }],
      ['hub_getUserInvoice', { sort: 'sideways' }],
      ['hub_getInvoiceView', {}],
      ['hub_getInvoiceView', { invoiceId: 'not-a-uuid' }],
      ['hub_getInvoiceView', { invoiceId: "1' or '1'='1" }],
      ['hub_getInvoicePreviewCode', { invoiceId: randomUUID(), revoke: 'yes' }],
      ['hub_getInvoicePdf', { invoiceId: randomUUID(), language: 'fr' }],
      ['hub_getInvoicePdf', { invoiceId: 42 }],
      ['hub_getInvoiceViewByCode', {}],
      ['hub_getInvoiceViewByCode', { code: 'x'.repeat(129) }],
      ['hub_getInvoiceViewByCode', { code: 'a\u0000b' }],
      ['hub_getInvoiceViewByCode', { code: { $gt: '' } }],
    ])('%s refuses %j with 10004', async (method, params) => {
      const u = await kit.user();
      const res = await h.raw({ method, params, id: 1 }, { token: u.token });
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
    });

    it('needs a session for everything but the public view', async () => {
      for (const method of [
        'hub_getUserInvoiceConfig',
        'hub_updateUserInvoiceConfig',
        'hub_getUserInvoice',
        'hub_getInvoiceView',
        'hub_getInvoicePreviewCode',
        'hub_getInvoicePdf',
      ]) {
        const res = await h.raw({ method, params: { invoiceId: randomUUID() }, id: 1 });
        expect(res.error?.code, method).toBe(ERROR_CODES.SESSION_MISSING);
      }
    });
  });

  describe('public codes', () => {
    it('show the invoice to anyone with the code, kept only as a hash, until rotated or revoked', async () => {
      const { u, invoice } = await paidInvoice();
      const link = await h.call(
        'hub_getInvoicePreviewCode',
        { invoiceId: invoice.id },
        { token: u.token },
      );
      const code = link.result!.code!;
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(link.result).toMatchObject({
        url: `http://console.test/invoice/${code}`,
        pdfUrl: `http://console.test/invoice-pdf?code=${code}&lang=en`,
        createdAt: h.clock.now(),
      });
      const [row] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(row!.publicCodeHash).toBe(createHash('sha256').update(code).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(code);

      const mine = await h.call(
        'hub_getInvoiceView',
        { invoiceId: invoice.id },
        { token: u.token },
      );
      expect((await h.call('hub_getInvoiceViewByCode', { code })).result).toEqual(mine.result);
      expect((await kit.invoicesOf(u.token)).list[0]!.publicLinkCreatedAt).toBe(h.clock.now());

      // A new code replaces the old one.
      const rotated = await h.call(
        'hub_getInvoicePreviewCode',
        { invoiceId: invoice.id },
        { token: u.token },
      );
      const fresh = rotated.result!.code!;
      expect(fresh).not.toBe(code);
      expect((await h.call('hub_getInvoiceViewByCode', { code })).error?.code).toBe(
        ERROR_CODES.LINK_INVALID,
      );
      expect((await h.call('hub_getInvoiceViewByCode', { code: fresh })).ok).toBe(true);

      const revoked = await h.call(
        'hub_getInvoicePreviewCode',
        { invoiceId: invoice.id, revoke: true },
        { token: u.token },
      );
      expect(revoked.result).toEqual({
        invoiceId: invoice.id,
        code: null,
        url: null,
        pdfUrl: null,
        createdAt: null,
      });
      expect((await h.call('hub_getInvoiceViewByCode', { code: fresh })).error?.code).toBe(
        ERROR_CODES.LINK_INVALID,
      );
      expect((await kit.invoicesOf(u.token)).list[0]!.publicLinkCreatedAt).toBeNull();
    });

    it.each([
      ['unknown', 'A'.repeat(43)],
      ['too short', 'abc'],
      ['at the length cap', 'x'.repeat(128)],
      ['SQL', "' or 1=1 --"],
      ['path', '../../etc/passwd'],
      ['blank', '   '.padEnd(43, ' ') + 'x'],
    ])('refuses a %s code with 10400', async (_name, code) => {
      const res = await h.call('hub_getInvoiceViewByCode', { code });
      expect(res.error?.code).toBe(ERROR_CODES.LINK_INVALID);
    });
  });

  it('keeps a team’s invoices, numbers and details apart from its members’', async () => {
    const me = await kit.user();
    await kit.credit(me.accountId, 10_000);
    await kit.buy(me.token);
    const [team] = await db
      .insert(accounts)
      .values({ kind: 'team', name: 'Team Invoices' })
      .returning({ id: accounts.id });
    const teamId = team!.id;
    await db.insert(accountMembers).values({ accountId: teamId, userId: me.userId, role: 'admin' });
    await kit.credit(teamId, 30_000);
    await h.call(
      'hub_updateUserInvoiceConfig',
      { company: 'Team Co' },
      { token: me.token, teamId },
    );
    const purchase = await kit.buy(me.token, 'standard-500m', teamId);

    const teamList = await kit.invoicesOf(me.token, teamId);
    expect(teamList.list).toHaveLength(1);
    expect(teamList.list[0]!.number).toMatch(/-000001$/);
    expect(teamList.list[0]!.totalCents).toBe(await kit.ledgerPaid(teamId, purchase.id));
    const mine = await kit.invoicesOf(me.token);
    expect(mine.list.map((i) => i.id)).not.toContain(teamList.list[0]!.id);
    expect(
      (
        await h.call(
          'hub_getInvoiceView',
          { invoiceId: teamList.list[0]!.id },
          { token: me.token, teamId },
        )
      ).result!.buyer.company,
    ).toBe('Team Co');
    // Acting as myself, the team's invoice is someone else's.
    expect(
      (await h.call('hub_getInvoiceView', { invoiceId: teamList.list[0]!.id }, { token: me.token }))
        .error?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect(
      (await h.call('hub_getUserInvoiceConfig', {}, { token: me.token })).result!.company,
    ).toBe('');
    // Not a member: refused before anything is read.
    const outsider = await kit.user();
    expect(
      (await kit.invoicesOf(outsider.token, teamId).catch((e: Error) => e.message)) as string,
    ).toContain(String(ERROR_CODES.TEAM_FORBIDDEN));
  });
});
