/** The addresses a signed transaction (eth_sendRawTransaction) acts on, read from its RLP / EIP-2718 envelope. */
import { decode } from '@ethereumjs/rlp';

export type TTxType = 'legacy' | 'eip2930' | 'eip1559' | 'eip4844' | 'eip7702';

export type TTxTargets =
  | {
      ok: true;
      type: TTxType;
      /** Lower-case 0x address; undefined for a contract creation (empty `to`). */
      to: string | undefined;
      /** EIP-7702 delegation targets (code installed on the signers' accounts); the zero address (reset) is left out. */
      delegates: string[];
    }
  | { ok: false; reason: string };

type TItem = Uint8Array | TItem[];

/** Field count of the signed payload and the position of `to`, per type (the EIPs' field lists). */
const LAYOUT: Record<TTxType, { fields: number; to: number }> = {
  legacy: { fields: 9, to: 3 }, // nonce, gasPrice, gas, to, value, data, v, r, s
  eip2930: { fields: 11, to: 4 }, // chainId, nonce, gasPrice, gas, to, …, accessList, yParity, r, s
  eip1559: { fields: 12, to: 5 }, // chainId, nonce, tip, maxFee, gas, to, value, data, accessList, yParity, r, s
  eip4844: { fields: 14, to: 5 }, // as 1559 + maxFeePerBlobGas, blobVersionedHashes before the signature
  eip7702: { fields: 13, to: 5 }, // as 1559 + authorizationList [[chainId, address, nonce, yParity, r, s], …]
};

const TYPE_BYTE: Record<number, TTxType> = {
  0x01: 'eip2930',
  0x02: 'eip1559',
  0x03: 'eip4844',
  0x04: 'eip7702',
};

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

function fail(reason: string): TTxTargets {
  return { ok: false, reason };
}

function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/**
 * Decodes the `to` (and EIP-7702 delegates) of a signed raw transaction: legacy RLP and typed envelopes 0x01–0x04,
 * including the blob transaction's network form (`0x03 || [payload, (version,) blobs, commitments, proofs]`).
 * Anything else — another type byte, a wrong field count, a non-canonical RLP item, trailing bytes — is refused:
 * the caller cannot tell what the node would execute.
 */
export function txTargets(raw: unknown): TTxTargets {
  if (typeof raw !== 'string' || !HEX.test(raw)) return fail('not a 0x-prefixed hex string');
  const bytes = Buffer.from(raw.slice(2), 'hex');
  let type: TTxType;
  let payload: Uint8Array;
  if (bytes[0]! >= 0xc0) {
    type = 'legacy';
    payload = bytes;
  } else {
    const t = TYPE_BYTE[bytes[0]!];
    if (!t) return fail(`unknown transaction type 0x${bytes[0]!.toString(16).padStart(2, '0')}`);
    type = t;
    payload = bytes.subarray(1);
  }
  let fields: TItem;
  try {
    fields = decode(payload) as TItem;
  } catch {
    // Malformed RLP; a crafted deep nesting ends here too (RangeError), never as a crash.
    return fail('not valid RLP');
  }
  if (!Array.isArray(fields)) return fail('not an RLP list');
  if (type === 'eip4844' && Array.isArray(fields[0])) fields = fields[0]; // network form: the payload comes first
  const layout = LAYOUT[type];
  if (fields.length !== layout.fields) return fail(`not a signed ${type} transaction`);
  const to = fields[layout.to]!;
  if (Array.isArray(to) || (to.length !== 0 && to.length !== 20))
    return fail('`to` is not a 20-byte address');
  const delegates: string[] = [];
  if (type === 'eip7702') {
    const list = fields[9]!;
    if (!Array.isArray(list)) return fail('authorization list is not a list');
    for (const auth of list) {
      const address = Array.isArray(auth) ? auth[1] : undefined;
      if (!Array.isArray(auth) || auth.length !== 6 || !address || Array.isArray(address))
        return fail('malformed authorization');
      if (address.length !== 20) return fail('authorization address is not 20 bytes');
      if (address.some((b) => b !== 0)) delegates.push(hex(address));
    }
  }
  return { ok: true, type, to: to.length === 0 ? undefined : hex(to), delegates };
}
