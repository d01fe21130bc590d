/**
 * Removes a secret (an API key, a GitHub token) from text a remote party sent before it is cut,
 * parsed or printed (docs/robustness.md, "Secrets"): as written, JSON-escaped and with `/` escaped,
 * the forms in which an endpoint or a proxy echoes it.
 */
export function secretRedactor(secret: string, mark = '[redacted]'): (text: string) => string {
  const forms = secret ? [...new Set([secret, JSON.stringify(secret).slice(1, -1), secret.replaceAll('/', '\\/')])] : [];
  return (text) => forms.reduce((t, f) => t.split(f).join(mark), text);
}
