import { decode, encode } from '@ethereumjs/rlp';
import { Transaction } from 'micro-eth-signer';
import { describe, expect, it } from 'vitest';
import { DELEGATE, RECIPIENT, SIGNED, TOKEN } from '../test/fixtures/signed-transactions';
import { txTargets } from './raw-transaction';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bytes = (h: string) => Buffer.from(h.slice(2), 'hex');

/** The payload fields of a typed transaction. */
const payloadOf = (raw: string) => decode(bytes(raw).subarray(1)) as Uint8Array[];

function lengthPrefix(n: number): Buffer {
  if (n < 56) return Buffer.from([0xc0 + n]);
  const len = Buffer.from(
    n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'),
    'hex',
  );
  return Buffer.concat([Buffer.from([0xf7 + len.length]), len]);
}

/** `depth` nested lists around an empty one, built without recursion (the decoder must fail on it, not crash). */
function nestedLists(depth: number): Buffer {
  const sizes = [1];
  for (let k = 1; k < depth; k++) sizes.push(sizes[k - 1]! + lengthPrefix(sizes[k - 1]!).length);
  const out = Buffer.alloc(sizes[depth - 1]!);
  let p = 0;
  for (let k = depth - 1; k >= 1; k--) p += lengthPrefix(sizes[k - 1]!).copy(out, p);
  out[p] = 0xc0;
  return out;
}

describe('txTargets: real signed transactions', () => {
  it.each([
    ['legacy (EIP-155)', SIGNED.legacy, 'legacy', RECIPIENT, []],
    [
      'legacy, the EIP-155 worked example',
      SIGNED.eip155Example,
      'legacy',
      `0x${'35'.repeat(20)}`,
      [],
    ],
    ['EIP-2930', SIGNED.eip2930, 'eip2930', TOKEN, []],
    ['EIP-1559', SIGNED.eip1559, 'eip1559', RECIPIENT, []],
    ['EIP-4844 payload form', SIGNED.eip4844, 'eip4844', TOKEN, []],
    ['EIP-7702 with one authorization', SIGNED.eip7702, 'eip7702', RECIPIENT, [DELEGATE]],
    ['EIP-1559 creation', SIGNED.creation, 'eip1559', undefined, []],
  ] as const)('%s', (_name, raw, type, to, delegates) => {
    expect(txTargets(raw)).toEqual({ ok: true, type, to, delegates });
  });

  it('agrees with an independent decoder (micro-eth-signer) on every fixture', () => {
    for (const raw of Object.values(SIGNED)) {
      const theirs = Transaction.fromHex(raw).raw as { to?: string };
      const ours = txTargets(raw);
      expect(ours.ok).toBe(true);
      if (ours.ok) expect(ours.to ?? '0x').toBe((theirs.to ?? '0x').toLowerCase());
    }
  });

  it('reads the blob transaction network forms (4 and 5 items) through to the payload', () => {
    const blob = new Uint8Array(64).fill(7);
    const wrap = (items: unknown[]) =>
      hex(Buffer.concat([Buffer.from([3]), encode(items as Uint8Array[])]));
    const payload = payloadOf(SIGNED.eip4844);
    const fourItems = wrap([payload, [blob], [blob], [blob]]); // blobs, commitments, proofs
    const fiveItems = wrap([payload, Uint8Array.of(1), [blob], [blob], [blob]]); // EIP-7594 cell proofs
    expect(txTargets(fourItems)).toMatchObject({ ok: true, type: 'eip4844', to: TOKEN });
    expect(txTargets(fiveItems)).toMatchObject({ ok: true, type: 'eip4844', to: TOKEN });
  });

  it('accepts upper-case hex digits', () => {
    expect(txTargets(`0x${SIGNED.eip1559.slice(2).toUpperCase()}`)).toMatchObject({
      ok: true,
      to: RECIPIENT,
    });
  });
});

describe('txTargets: garbage is refused, never thrown', () => {
  const legacyFields = decode(bytes(SIGNED.legacy)) as Uint8Array[];
  const with19ByteTo = hex(encode(legacyFields.map((f, i) => (i === 3 ? f.subarray(1) : f))));
  const unsignedLegacy = hex(encode(legacyFields.slice(0, 6)));
  const authFields: unknown[] = payloadOf(SIGNED.eip7702);
  authFields[9] = [[Uint8Array.of(1)]]; // an authorization of one field
  const badAuth = hex(Buffer.concat([Buffer.from([4]), encode(authFields as Uint8Array[])]));
  it.each([
    ['a number', 42, /hex string/],
    ['null', null, /hex string/],
    ['an object', { raw: SIGNED.legacy }, /hex string/],
    ['empty string', '', /hex string/],
    ['"0x"', '0x', /hex string/],
    ['no 0x prefix', SIGNED.legacy.slice(2), /hex string/],
    ['odd length', `${SIGNED.legacy}0`, /hex string/],
    ['non-hex digit', `${SIGNED.legacy.slice(0, -2)}zz`, /hex string/],
    ['a single byte', '0x00', /type 0x00/],
    ['type 0x05', `0x05${SIGNED.eip1559.slice(4)}`, /type 0x05/],
    ['type 0x7e (OP deposit)', `0x7e${SIGNED.eip1559.slice(4)}`, /type 0x7e/],
    ['an RLP string, not a list', '0x83616263', /type 0x83/],
    ['truncated', SIGNED.eip1559.slice(0, -10), /RLP/],
    ['trailing byte', `${SIGNED.eip1559}00`, /RLP/],
    ['EIP-1559 body under type 0x01', `0x01${SIGNED.eip1559.slice(4)}`, /signed eip2930/],
    ['unsigned legacy (6 fields)', unsignedLegacy, /signed legacy/],
    ['19-byte to', with19ByteTo, /20-byte/],
    ['malformed authorization', badAuth, /authorization/],
    ['non-canonical length (0xb8 for a short string)', '0xc4b80261', /RLP/],
    ['100 000 nested lists', hex(nestedLists(100_000)), /RLP/],
  ])('%s', (_name, raw, reason) => {
    const r = txTargets(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});
