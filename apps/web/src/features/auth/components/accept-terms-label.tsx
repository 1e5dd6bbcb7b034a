/** The terms checkbox's label, with the Terms of Service and the Privacy Policy one click away (new tab). */
import { Trans } from 'react-i18next';
import { ExternalLink } from '../../../components/external-link';
import { HELP_LINKS } from '../../../lib/help-links';

export function AcceptTermsLabel() {
  return (
    <Trans
      ns="auth"
      i18nKey="acceptTerms"
      components={{
        // Trans puts the translated words inside each element.
        terms: <ExternalLink href={HELP_LINKS.terms}>{''}</ExternalLink>,
        privacy: <ExternalLink href={HELP_LINKS.privacy}>{''}</ExternalLink>,
      }}
    />
  );
}
