/** Copies text with the async Clipboard API and says so; a refusal (no permission, no HTTPS) says that too. */
import { message } from 'antd';

export async function copyText(text: string, texts: { success: string; failure: string }) {
  try {
    await navigator.clipboard.writeText(text);
    void message.success(texts.success);
    return true;
  } catch {
    void message.error(texts.failure);
    return false;
  }
}
