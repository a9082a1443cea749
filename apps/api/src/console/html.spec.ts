import { escapeHtml, html, SafeHtml } from './html.js';

describe('html', () => {
  it('escapes every value, in text and in attributes', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<p title="${name}">${name}</p>`.markup).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('inserts what another html made as it is, and renders lists item by item', () => {
    const items = ['a<', 'b>'].map((item) => html`<li>${item}</li>`);
    // Prettier lays the template out as HTML: the spaces between tags are not what is checked.
    expect(
      html`<ul>
        ${items}
      </ul>`.markup.replace(/>\s+</g, '><'),
    ).toBe('<ul><li>a&lt;</li><li>b&gt;</li></ul>');
  });

  it('renders null, undefined and false as nothing, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${12.5}`.markup).toBe('012.5');
  });

  it('leaves markup it did not make escaped, even when it looks safe', () => {
    expect(html`${'<b>bold</b>'}`).toEqual(new SafeHtml('&lt;b&gt;bold&lt;/b&gt;'));
    expect(escapeHtml('"')).toBe('&quot;');
  });
});
