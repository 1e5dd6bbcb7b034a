/** /reset-password/checking?code=…: the link in the password reset mail. */
import { PasswordCodeChecking } from './password-code-checking';

export function ResetPasswordCheckingPage() {
  return <PasswordCodeChecking purpose="reset" />;
}
