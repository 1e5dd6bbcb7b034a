/**
 * Deposit addresses from the operator's extended public key (BIP-32): child `index` of the xpub, non-hardened,
 * address = last 20 bytes of keccak256 of the uncompressed public key. The server never holds a private key.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { HDKey } from '@scure/bip32';
import { toHex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

/**
 * The localnet-only default: m/44'/60'/1'/0 of Hardhat's public test mnemonic ("test test … junk"), account 1'
 * so deposit addresses are not the 20 pre-funded test accounts (account 0'). Anyone can spend from these
 * addresses: it is never used for a chain other than `localnet` (deposit-settings.ts).
 */
export const LOCALNET_TEST_XPUB =
  'xpub6EFHUEbYV13535ChA9yg5xZTWowwFCmFoWnhLbwkd91xHoirGu89GTZwBSUBnBpFeY5EV2cgof8yuyDnkeGALcD8DgGYJSiQfkxKpunWTX1';

/** Largest non-hardened child index (2^31 - 1). */
export const MAX_DERIVATION_INDEX = 0x7fff_ffff;

/** Parses an xpub; throws on anything else, including an xprv (a private key has no place on this server). */
export function parseXpub(xpub: string): HDKey {
  const key = HDKey.fromExtendedKey(xpub.trim());
  if (key.privateKey)
    throw new Error('DEPOSIT_XPUB must be an extended public key, not a private one');
  return key;
}

/** Lower-case 0x address of child `index` of `key`. */
export function deriveAddress(key: HDKey, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX)
    throw new Error(`derivation index out of range: ${index}`);
  const child = key.deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  // HDKey holds the 33-byte compressed key; the address hashes the 64 bytes of the uncompressed one.
  const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
  return publicKeyToAddress(toHex(uncompressed)).toLowerCase();
}
