/**
 * Wallet sign-in and binding over the browser's injected EIP-1193 provider (MetaMask and the like): a few JSON-RPC
 * requests, no library. The server builds the Sign-In with Ethereum message; the wallet only signs it.
 */
import type { TLanguage } from '@rpc/contract';
import { callRpc } from './rpc-client';

/** The part of EIP-1193 the console uses. */
export type TEip1193Provider = {
  request: (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>;
};

/** What went wrong on the wallet's side; errors of the console API stay RpcCallError. */
export type TWalletErrorKind =
  /** no injected provider: nothing is installed (or it is disabled for this site) */
  | 'missing'
  /** the user said no in the wallet (EIP-1193 code 4001) */
  | 'rejected'
  /** the wallet is already showing a request for this site (-32002) */
  | 'busy'
  /** anything else the wallet answered */
  | 'failed';

export class WalletError extends Error {
  readonly kind: TWalletErrorKind;
  constructor(kind: TWalletErrorKind, message: string = kind) {
    super(message);
    this.name = 'WalletError';
    this.kind = kind;
  }
}

export function isWalletError(error: unknown): error is WalletError {
  return error instanceof WalletError;
}

/** EIP-1193 "User Rejected Request", and the name ethers gives it. */
const USER_REJECTED = 4001;
/** MetaMask's "request already pending" (a second click while its popup is open). */
const REQUEST_PENDING = -32002;

export function getInjectedProvider(): TEip1193Provider | null {
  const provider = (window as Window & { ethereum?: TEip1193Provider }).ethereum;
  return provider && typeof provider.request === 'function' ? provider : null;
}

function toWalletError(error: unknown): WalletError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === USER_REJECTED || code === 'ACTION_REJECTED') return new WalletError('rejected');
  if (code === REQUEST_PENDING) return new WalletError('busy');
  const text = (error as { message?: unknown } | null)?.message;
  return new WalletError('failed', typeof text === 'string' && text ? text : 'failed');
}

async function ask(provider: TEip1193Provider, method: string, params?: readonly unknown[]) {
  try {
    return await provider.request(params ? { method, params } : { method });
  } catch (error) {
    throw toWalletError(error);
  }
}

/** The UTF-8 bytes of `text` as 0x-prefixed hex: personal_sign's first parameter. */
export function toHexUtf8(text: string): string {
  let hex = '0x';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** "0x1" or "0x89" (what eth_chainId answers) as a number; null when it is not a chain id. */
export function parseChainId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) return null;
  const id = Number.parseInt(value, 16);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export type TConnectedWallet = { provider: TEip1193Provider; address: string; chainId: number };

/** Asks the wallet for an account (it shows its own prompt the first time) and reads its chain. */
export async function connectWallet(): Promise<TConnectedWallet> {
  const provider = getInjectedProvider();
  if (!provider) throw new WalletError('missing');
  const accounts = await ask(provider, 'eth_requestAccounts');
  const address = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new WalletError('failed', 'The wallet gave no account.');
  }
  const chainId = parseChainId(await ask(provider, 'eth_chainId'));
  if (chainId === null) throw new WalletError('failed', 'The wallet gave no chain id.');
  return { provider, address, chainId };
}

export type TSignedSiwe = { message: string; signature: string; address: string };

/**
 * Has the wallet sign the server's Sign-In with Ethereum message for `purpose`: 'login' for
 * hub_metamaskRegister, 'bind' for hub_bindMetamask.
 */
export async function signSiwe(purpose: 'login' | 'bind'): Promise<TSignedSiwe> {
  const { provider, address, chainId } = await connectWallet();
  const { message } = await callRpc('hub_getMetamaskNonce', { address, chainId, purpose });
  const signature = await ask(provider, 'personal_sign', [toHexUtf8(message), address]);
  if (typeof signature !== 'string')
    throw new WalletError('failed', 'The wallet gave no signature.');
  return { message, signature, address };
}

/** Signs in (or creates an account) with the wallet; the answer may still want a two-factor code. */
export async function signInWithWallet(language: TLanguage) {
  const { message, signature } = await signSiwe('login');
  return callRpc('hub_metamaskRegister', { message, signature, language });
}

/** Binds the wallet to the signed-in user. */
export async function bindWallet() {
  const { message, signature } = await signSiwe('bind');
  return callRpc('hub_bindMetamask', { message, signature });
}

/**
 * The user info has no field of its own for the bound wallet: hub_getUserProfile lists it among `oauth` as
 * { provider: 'wallet', email: <address> } (the convention agreed with the server side), so no OAuth provider
 * may be configured with this id.
 */
export const WALLET_PROVIDER_ID = 'wallet';

/** The address of the bound wallet, if any. */
export function boundWalletAddress(oauth: readonly { provider: string; email: string | null }[]) {
  return oauth.find((entry) => entry.provider === WALLET_PROVIDER_ID)?.email ?? null;
}
