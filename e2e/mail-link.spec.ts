// The outbox reader the specs sign up with (fixtures/mail-link.ts), on a mail the product wrote whose code starts
// with "3D": decoding quoted-printable over the whole file once turned it into another code (a CI flake).
import { expect, test } from '@playwright/test';
import { mailIsTo, mailLink } from './fixtures/mail-link';

const CODE = '3DDezUNwONsRuKzmCoG3ryHaJunu47k-iTTGYzfmASc';
const EML = [
  `X-Outbox-Link: http://localhost:3310/activate-account?code=${CODE}`,
  'To: e2e-request-log-1@example.com',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Confirm e-mail: http://localhost:3310/activate-account?=',
  `code=3D${CODE}`,
  '',
].join('\n');

test('reads the link from the unencoded header, and from the body when the header is missing', () => {
  expect(mailIsTo(EML, 'E2E-request-log-1@example.com')).toBe(true);
  expect(mailIsTo(EML, 'someone@example.com')).toBe(false);
  const fromHeader = mailLink(EML, '/activate-account');
  expect(new URL(fromHeader!).searchParams.get('code')).toBe(CODE);
  const bodyOnly = EML.split('\n').slice(1).join('\n');
  expect(new URL(mailLink(bodyOnly, '/activate-account')!).searchParams.get('code')).toBe(CODE);
  expect(mailLink(EML, '/reset-password')).toBeUndefined();
});
