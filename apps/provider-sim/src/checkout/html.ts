/**
 * Minimal HTML helpers for the hosted checkout. Pages are self-contained:
 * inline CSS, no scripts, no external assets — so they render the same
 * offline, in CI and in a headless browser.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and quoted attribute values. Every dynamic value goes through this. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/**
 * Locks the page down: nothing may load except the inline styles, and no one
 * may frame it. (form-action is deliberately not restricted: after paying,
 * the simulator redirects to the merchant's callback_url on another origin.)
 */
export const CHECKOUT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

const STYLES = `
  :root { color-scheme: light; --ink: #1b2430; --muted: #5b6675; --line: #d9dee5; --accent: #0b6e4f;
          --accent-ink: #ffffff; --danger: #a4262c; --danger-bg: #fdecec; --ok-bg: #e8f5ee; --focus: #1f6feb; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: flex-start; justify-content: center;
         padding: 2.5rem 1rem; background: #f3f5f8; color: var(--ink);
         font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  main { width: 100%; max-width: 30rem; background: #fff; border: 1px solid var(--line); border-radius: 12px;
         box-shadow: 0 8px 24px rgba(27, 36, 48, 0.08); overflow: hidden; }
  header { display: flex; align-items: center; justify-content: space-between; gap: 1rem;
           padding: 1rem 1.5rem; border-bottom: 1px solid var(--line); }
  header p { margin: 0; font-weight: 600; }
  .mode { font-size: 0.75rem; font-weight: 700; letter-spacing: 0.04em; text-transform: uppercase;
          padding: 0.2rem 0.55rem; border-radius: 999px; background: #fff4d6; color: #6b4e00; }
  .mode.live { background: var(--danger-bg); color: var(--danger); }
  .content { padding: 1.5rem; }
  h1 { margin: 0 0 0.25rem; font-size: 1.1rem; font-weight: 600; color: var(--muted); }
  .amount { margin: 0; font-size: 2.25rem; font-weight: 700; letter-spacing: -0.02em; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 1rem 0 1.5rem;
       font-size: 0.9rem; }
  dt { color: var(--muted); }
  dd { margin: 0; overflow-wrap: anywhere; }
  fieldset { border: 0; margin: 0; padding: 0; }
  legend { font-weight: 600; margin-bottom: 0.5rem; padding: 0; }
  .option { position: relative; margin-bottom: 0.5rem; }
  .option input { position: absolute; top: 1.05rem; left: 1rem; width: 1.1rem; height: 1.1rem; margin: 0;
                  accent-color: var(--accent); }
  .option label { display: block; padding: 0.75rem 1rem 0.75rem 2.75rem; border: 1px solid var(--line);
                  border-radius: 8px; cursor: pointer; }
  .option input:checked + label { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
  .option input:focus-visible + label { outline: 3px solid var(--focus); outline-offset: 2px; }
  .option .name { display: block; font-weight: 600; }
  .option .number { display: block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
                    font-size: 0.85rem; color: var(--muted); }
  .option .behaviour { display: block; font-size: 0.85rem; color: var(--muted); }
  button, .button { display: block; width: 100%; margin-top: 1rem; padding: 0.85rem 1rem; border: 0;
           border-radius: 8px; background: var(--accent); color: var(--accent-ink); font: inherit;
           font-weight: 700; text-align: center; text-decoration: none; cursor: pointer; }
  button:hover, .button:hover { filter: brightness(1.08); }
  button:focus-visible, .button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .button.secondary { background: #fff; color: var(--ink); border: 1px solid var(--line); }
  .notice { padding: 0.75rem 1rem; border-radius: 8px; margin: 0 0 1rem; }
  .notice.error { background: var(--danger-bg); color: var(--danger); }
  .notice.success { background: var(--ok-bg); color: var(--accent); }
  footer { padding: 0.75rem 1.5rem; border-top: 1px solid var(--line); font-size: 0.8rem; color: var(--muted); }
  @media (prefers-reduced-motion: no-preference) { button, .button { transition: filter 0.15s; } }
`;

export interface LayoutOptions {
  title: string;
  mode: 'test' | 'live';
  body: string;
}

export function renderLayout({ title, mode, body }: LayoutOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<header>
<p>Provider Simulator · Checkout</p>
<span class="mode${mode === 'live' ? ' live' : ''}">${mode === 'live' ? 'Live account' : 'Test mode'}</span>
</header>
${body}
<footer>This is a payment provider simulator. No real card is charged and no money moves.</footer>
</main>
</body>
</html>`;
}
