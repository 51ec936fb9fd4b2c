import { html, SafeHtml } from './html-escape';

describe('html', () => {
  it('escapes the five characters that can end a text node or a quoted attribute', () => {
    expect(html`${`<a href="x" onclick='y'>&amp;</a>`}`.html).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('escapes every interpolated value, in text and in attributes, but not nested html', () => {
    const description = '"><script>alert(1)</script>';
    const page = html`<input value="${description}"><p>${description}</p>${html`<b>${'&'}</b>`}`;
    expect(page.html).toBe('<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"><p>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p><b>&amp;</b>');
  });

  it('joins lists of fragments and keeps explicit SafeHtml as is', () => {
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${new SafeHtml('<hr>')}`.html).toBe('<ul><li>a&lt;</li><li>b</li></ul><hr>');
  });
});
