/** Escapes text for HTML element content and quoted attribute values. */
export const esc = (s: unknown) =>
  String(s ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input,select{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
.error{color:#a00;border:1px solid #a00;padding:.5rem}ul{padding-left:1.2rem}`;

/** D38: a plain, accessible server-rendered page; the security headers are set by the route. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

export const errorBox = (message: string | undefined) =>
  message ? `<p class="error" role="alert">${esc(message)}</p>` : '';

export const field = (label: string, name: string, attrs = '') =>
  `<label for="${name}">${esc(label)}</label><input id="${name}" name="${name}" ${attrs}>`;

export const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${esc(value)}">`;
