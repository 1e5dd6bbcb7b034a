/**
 * The billing details an account keeps for its invoices (hub_getUserInvoiceConfig / hub_updateUserInvoiceConfig).
 * One row per account, created on the first save; an account without one bills as all-empty.
 */
import {
  INVOICE_CONFIG_FIELDS,
  type TInvoiceConfig,
  type TInvoiceConfigInput,
  type TInvoiceParty,
} from '@rpc/contract';
import { invoiceConfigs, type TExecutor, type TInvoiceConfigRow } from '@rpc/db';
import { eq } from 'drizzle-orm';

export const EMPTY_INVOICE_PARTY: TInvoiceParty = Object.freeze({
  name: '',
  company: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  taxId: '',
  email: '',
});

function toParty(row: TInvoiceConfigRow | undefined): TInvoiceParty {
  if (!row) return { ...EMPTY_INVOICE_PARTY };
  return Object.fromEntries(INVOICE_CONFIG_FIELDS.map((f) => [f, row[f]])) as TInvoiceParty;
}

/** What a new invoice copies as its buyer: the details as they are in this transaction. */
export async function readInvoiceParty(tx: TExecutor, accountId: string): Promise<TInvoiceParty> {
  const [row] = await tx
    .select()
    .from(invoiceConfigs)
    .where(eq(invoiceConfigs.accountId, accountId));
  return toParty(row);
}

export async function getInvoiceConfig(
  db: TExecutor,
  o: { accountId: string },
): Promise<TInvoiceConfig> {
  const [row] = await db
    .select()
    .from(invoiceConfigs)
    .where(eq(invoiceConfigs.accountId, o.accountId));
  return { ...toParty(row), updatedAt: row?.updatedAt.getTime() ?? null };
}

/** Writes the fields given (already validated by the contract); the others keep their values. */
export async function updateInvoiceConfig(
  db: TExecutor,
  o: { accountId: string; input: TInvoiceConfigInput; now: number },
): Promise<TInvoiceConfig> {
  const changes = Object.fromEntries(
    INVOICE_CONFIG_FIELDS.filter((f) => o.input[f] !== undefined).map((f) => [f, o.input[f]]),
  ) as Partial<TInvoiceParty>;
  const at = new Date(o.now);
  const [row] = await db
    .insert(invoiceConfigs)
    .values({ accountId: o.accountId, ...changes, updatedAt: at })
    .onConflictDoUpdate({ target: invoiceConfigs.accountId, set: { ...changes, updatedAt: at } })
    .returning();
  return { ...toParty(row), updatedAt: row!.updatedAt.getTime() };
}
