/** /reset-password/set?code=…: choose the password. */
import { PasswordSetForm } from './password-set-form';

export function ResetPasswordSetPage() {
  return <PasswordSetForm purpose="reset" />;
}
