import escapeHtml from 'escape-html';

/**
 * A template tag that escapes every interpolated value unless it is already `SafeHtml` (built by
 * this tag), so a page cannot forget to escape one.
 */
export class SafeHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export function html(strings: TemplateStringsArray, ...values: Array<string | number | SafeHtml | SafeHtml[]>): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    const rendered = Array.isArray(value) ? value.map((v) => v.html).join('') : value instanceof SafeHtml ? value.html : escapeHtml(String(value));
    out += rendered + strings[i + 1];
  });
  return new SafeHtml(out);
}
