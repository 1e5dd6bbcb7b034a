/** /set-password/set?code=…: choose the password. */
import { PasswordSetForm } from './password-set-form';

export function SetPasswordSetPage() {
  return <PasswordSetForm purpose="set" />;
}
