/**
 * Wallet sign-in with Sign-In with Ethereum (EIP-4361), built and parsed with viem (docs/decisions/sign-in.md).
 *
 * The server writes the whole message (domain = this console's host, URI, chain, nonce, 10-minute expiry) and keeps
 * its SHA-256 under the nonce's; the wallet signs it; the answer must be that very message, signed by its address.
 * A nonce is spent by its first use, whatever the outcome, so a signature is never good twice. An externally owned
 * account is checked by recovering the signer; anything else (a smart-contract wallet, EIP-1271, or an undeployed
 * one, ERC-6492) by asking the chain through our own upstream for that chain id.
 */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { authChallenges, userIdentities, users, type TDatabase } from '@rpc/db';
import type { TChain } from '@rpc/gateway';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  createPublicClient,
  getAddress,
  http,
  isAddressEqual,
  recoverMessageAddress,
  type Hex,
} from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { isUniqueViolation } from '../../lib/db-errors';
import { sha256Hex } from '../../lib/secrets';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { createPasswordlessUser } from './create-passwordless-user';
import { openSession } from './open-session';
import { assertNotLastWay } from './sign-in-ways';
import { requireRecentSignIn } from './two-factor';

/** How long a SIWE message may wait for its signature. */
export const SIWE_TTL_MS = 10 * 60_000;
/** The identity provider id of wallets in user_identities and sessions.method. */
export const WALLET_PROVIDER = 'wallet';

const STATEMENT = {
  login: 'Sign in to the RPC console.',
  bind: 'Bind this wallet to your RPC console account.',
} as const;

type TPurpose = 'login' | 'bind';
type TWalletCtx = Pick<TRpcContext, 'db' | 'clock' | 'config' | 'chains' | 'throttle' | 'ip'>;

/** The chains a wallet may sign in from: those of our catalogue with an EIP-155 id. */
function knownChain(chains: TChain[], chainId: number): TChain | undefined {
  return chains.find((c) => c.chainId === chainId);
}

function expectedDomain(o: Pick<TRpcContext, 'config'>): string {
  return new URL(o.config.publicUrl).host;
}

export async function getMetamaskNonce(
  o: TWalletCtx,
  p: TParams<'hub_getMetamaskNonce'>,
): Promise<TResult<'hub_getMetamaskNonce'>> {
  await o.throttle.enforce({ action: 'walletSignIn', email: null, ip: o.ip, limitType: 'type3' });
  // Wrong chain: refused here, with the same code as a bad signature, so the wallet can be switched first.
  if (!knownChain(o.chains, p.chainId)) throw new RpcError(ERROR_CODES.SIWE_INVALID);
  const now = o.clock.now();
  // 128 random bits, hex: EIP-4361 wants at least 8 alphanumeric characters.
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = now + SIWE_TTL_MS;
  const message = createSiweMessage({
    domain: expectedDomain(o),
    address: getAddress(p.address),
    statement: STATEMENT[p.purpose],
    uri: o.config.publicUrl,
    version: '1',
    chainId: p.chainId,
    nonce,
    issuedAt: new Date(now),
    expirationTime: new Date(expiresAt),
  });
  await o.db.insert(authChallenges).values({
    kind: 'siwe',
    purpose: p.purpose,
    secretHash: sha256Hex(nonce),
    provider: WALLET_PROVIDER,
    payload: { messageHash: sha256Hex(message), chainId: p.chainId },
    expiresAt: new Date(expiresAt),
    createdAt: new Date(now),
  });
  return { message, expiresAt };
}

/**
 * Spends the message's nonce and checks the signature; answers the signer's lowercased address. 10211 when the
 * nonce is unknown, spent, expired or of the other purpose; 10210 for anything else wrong.
 */
export async function verifySiwe(
  o: TWalletCtx,
  p: { message: string; signature: string; purpose: TPurpose },
): Promise<string> {
  let fields: ReturnType<typeof parseSiweMessage>;
  try {
    fields = parseSiweMessage(p.message);
  } catch {
    throw new RpcError(ERROR_CODES.SIWE_INVALID);
  }
  if (!fields.nonce || !fields.address || fields.chainId === undefined)
    throw new RpcError(ERROR_CODES.SIWE_INVALID);
  const now = o.clock.now();
  // Spent before the signature is checked: one attempt per nonce, and two racing uses cannot both pass.
  const [challenge] = await o.db
    .update(authChallenges)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(authChallenges.kind, 'siwe'),
        eq(authChallenges.secretHash, sha256Hex(fields.nonce)),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, new Date(now)),
      ),
    )
    .returning({ purpose: authChallenges.purpose, payload: authChallenges.payload });
  if (!challenge || challenge.purpose !== p.purpose)
    throw new RpcError(ERROR_CODES.SIWE_NONCE_INVALID);
  const issued = challenge.payload as { messageHash?: string; chainId?: number };
  // Byte for byte the message we wrote: no field (domain, URI, chain, address, times) can have been changed.
  if (issued.messageHash !== sha256Hex(p.message) || issued.chainId !== fields.chainId)
    throw new RpcError(ERROR_CODES.SIWE_INVALID);
  // And still valid by its own fields at this moment (expiry, not-before, domain).
  if (
    !validateSiweMessage({
      message: fields,
      domain: expectedDomain(o),
      nonce: fields.nonce,
      time: new Date(now),
    })
  )
    throw new RpcError(ERROR_CODES.SIWE_INVALID);
  if (!(await signedBy(o, fields.address, fields.chainId, p.message, p.signature as Hex)))
    throw new RpcError(ERROR_CODES.SIWE_INVALID);
  return fields.address.toLowerCase();
}

async function signedBy(
  o: Pick<TRpcContext, 'chains'>,
  address: Hex,
  chainId: number,
  message: string,
  signature: Hex,
): Promise<boolean> {
  try {
    const signer = await recoverMessageAddress({ message, signature });
    if (isAddressEqual(signer, address)) return true;
  } catch {
    // Not a plain 65-byte signature: may be a contract wallet's, below.
  }
  const upstream = knownChain(o.chains, chainId)?.http.full[0];
  if (!upstream) return false;
  try {
    const client = createPublicClient({ transport: http(upstream, { timeout: 10_000 }) });
    // EIP-1271 isValidSignature on a deployed wallet, ERC-6492 for one not deployed yet.
    return await client.verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}

async function userOfWallet(db: TDatabase, address: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, WALLET_PROVIDER), eq(userIdentities.subject, address)))
    .limit(1);
  return row?.userId;
}

/** hub_metamaskRegister: signs the wallet's user in, creating an uninitialised account for a new wallet. */
export async function metamaskRegister(
  o: TWalletCtx & Pick<TRpcContext, 'userAgent' | 'noticeBus'>,
  p: TParams<'hub_metamaskRegister'>,
): Promise<TResult<'hub_metamaskRegister'>> {
  await o.throttle.enforce({ action: 'walletSignIn', email: null, ip: o.ip, limitType: 'type1' });
  const address = await verifySiwe(o, { ...p, purpose: 'login' });
  const now = o.clock.now();
  let userId = await userOfWallet(o.db, address);
  let created = false;
  if (!userId) {
    const made = await createPasswordlessUser(o, {
      nickname: `${address.slice(0, 6)}…${address.slice(-4)}`,
      language: p.language ?? 'en',
      identity: { provider: WALLET_PROVIDER, subject: address, email: null, displayName: null },
    });
    userId = made.userId;
    created = made.created;
  }
  const session = await openSession(o.db, {
    userId,
    method: WALLET_PROVIDER,
    now,
    ip: o.ip,
    userAgent: o.userAgent,
  });
  return { ...session, created };
}

/**
 * hub_bindMetamask: one wallet per user, one user per wallet. A new way in outlives the token that added it, so it
 * needs a sign-in within 15 minutes (10225): a stolen old session must not bind the thief's wallet and so keep
 * signing in after it is revoked. Checked before the nonce is spent, so a signed-in-again user can still use it.
 */
export async function bindMetamask(
  o: TWalletCtx,
  auth: TAuth,
  p: TParams<'hub_bindMetamask'>,
): Promise<TResult<'hub_bindMetamask'>> {
  await requireRecentSignIn(o, auth.sessionId);
  const address = await verifySiwe(o, { ...p, purpose: 'bind' });
  const owner = await userOfWallet(o.db, address);
  if (owner !== undefined && owner !== auth.userId) throw new RpcError(ERROR_CODES.IDENTITY_TAKEN);
  if (owner === auth.userId) return { address };
  try {
    await o.db.insert(userIdentities).values({
      userId: auth.userId,
      provider: WALLET_PROVIDER,
      subject: address,
      createdAt: new Date(o.clock.now()),
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Lost a race, or this user has another wallet: tell which.
    const now = await userOfWallet(o.db, address);
    throw new RpcError(
      now === auth.userId || now === undefined
        ? ERROR_CODES.IDENTITY_ALREADY_BOUND
        : ERROR_CODES.IDENTITY_TAKEN,
      { cause: err },
    );
  }
  return { address };
}

/** hub_unbindMetamask: refused when the wallet is the last way to sign in (10214). */
export async function unbindMetamask(
  o: Pick<TRpcContext, 'db'>,
  auth: TAuth,
): Promise<TResult<'hub_unbindMetamask'>> {
  await o.db.transaction(async (tx) => {
    // The user row lock orders this against a parallel unbind of the other last way.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.userId)).for('update');
    const [bound] = await tx
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(
        and(eq(userIdentities.userId, auth.userId), eq(userIdentities.provider, WALLET_PROVIDER)),
      )
      .limit(1);
    if (!bound) throw new RpcError(ERROR_CODES.NOT_FOUND);
    await assertNotLastWay(tx, auth.userId, WALLET_PROVIDER);
    await tx.delete(userIdentities).where(eq(userIdentities.id, bound.id));
  });
  return { success: true };
}
