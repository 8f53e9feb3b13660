import { describe, expect, it } from 'vitest';
import { unwrapFramedFinvoice } from '../../../../src/invoices/parsing/detect.js';
import { loadXml } from '../../../../src/invoices/parsing/xml.js';
import { textAt } from '../../../../src/invoices/parsing/xml-tree.js';
import { parseChecked } from './samples.js';

const encode = (text: string) => new TextEncoder().encode(text);

function rootOf(bytes: Uint8Array) {
  const loaded = loadXml(bytes);
  if (!loaded.ok) throw new Error(loaded.failure.message);
  return loaded.root;
}

describe('loadXml', () => {
  it('strips namespace prefixes and decodes entities and character references', () => {
    const root = rootOf(
      encode(
        '<cbc:Invoice xmlns:cbc="urn:x"><cbc:Name a:b="1" xmlns:a="urn:a">A &amp; B &#228;&#x41;</cbc:Name></cbc:Invoice>',
      ),
    );
    expect(root.name).toBe('Invoice');
    expect(textAt(root, 'Name')).toBe('A & B äA');
    expect(root.children[0]?.attributes).toEqual({ b: '1' });
  });

  it('accepts a UTF-8 byte order mark and a comment before the root, without an XML declaration', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('\r\n<!-- disclaimer -->\n<Root><ID>1</ID></Root>')]);
    expect(textAt(rootOf(bytes), 'ID')).toBe('1');
  });

  it('decodes by the declared single-byte encoding', () => {
    const bytes = Uint8Array.from('<?xml version="1.0" encoding="ISO-8859-15"?><R>\xA4 \xE4</R>', (char) =>
      char.charCodeAt(0),
    );
    expect(rootOf(bytes).text).toBe('€ ä');
  });

  it('decodes UTF-16 with a byte order mark', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?><R>Ø</R>';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    [...text].forEach((char, index) => {
      bytes[2 + index * 2] = char.charCodeAt(0) & 0xff;
      bytes[3 + index * 2] = char.charCodeAt(0) >> 8;
    });
    expect(rootOf(bytes).text).toBe('Ø');
  });

  it('keeps values as strings', () => {
    expect(textAt(rootOf(encode('<R><A>0150</A><B>1116.00</B></R>')), 'B')).toBe('1116.00');
    expect(textAt(rootOf(encode('<R><A>0150</A></R>')), 'A')).toBe('0150');
  });

  it('refuses 65 levels of nesting but accepts 60', () => {
    const nested = (depth: number) => encode(`${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`);
    expect(loadXml(nested(60)).ok).toBe(true);
    expect(loadXml(nested(65))).toMatchObject({ ok: false, failure: { code: 'xml_too_deep' } });
  });

  it('refuses an element with more than 100 attributes but accepts 100 (the parser slows with their number)', () => {
    const withAttributes = (count: number) =>
      encode(`<a>${'<b/>'.repeat(3)}<c ${Array.from({ length: count }, (_, i) => `x${i}="1"`).join(' ')}/></a>`);
    expect(loadXml(withAttributes(100)).ok).toBe(true);
    expect(loadXml(withAttributes(101))).toMatchObject({
      ok: false,
      failure: { code: 'xml_too_many_elements', message: 'An element of the XML has more than 100 attributes.' },
    });
  });
});

describe('loadXml: well-formed XML 1.0, read in one pass (docs/invoice-parsing.md)', () => {
  const failureOf = (text: string) => {
    const loaded = loadXml(encode(text));
    return loaded.ok ? null : loaded.failure;
  };

  it('joins the trimmed text around children, keeps CDATA as written and skips comments and instructions', () => {
    const root = rootOf(encode('<?xml version="1.0"?><a>  foo <b/> bar <!-- c --> baz <?pi x?><![CDATA[ <y> ]]></a>'));
    expect(root.text).toBe('foobarbaz <y>');
    expect(root.children.map((child) => child.name)).toEqual(['b']);
  });

  it('decodes the HTML and currency names producers write by mistake', () => {
    expect(rootOf(encode('<a>x&nbsp;y &euro; &#x41;</a>')).text).toBe('x\u00a0y € A');
    expect(rootOf(encode('<a b="&amp;&lt;&#65;"/>')).attributes).toEqual({ b: '&<A' });
  });

  it.each([
    ['a bare ampersand', '<a>x & y</a>'],
    ['a reference without its semicolon', '<a>&amp</a>'],
    ['an unknown entity', '<a>&foo;</a>'],
    ['a reference to no character', '<a>&#x110000;</a>'],
    ['a control character', '<a>\u0001</a>'],
    ['a repeated attribute', '<a b="1" b="2"/>'],
    ['an unquoted attribute', '<a b=c/>'],
    ['attributes without whitespace between them', '<a b="1"c="2"/>'],
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an end tag of another case', '<a></A>'],
    ['an unclosed element', '<a><b>x</b>'],
    ['an unclosed comment', '<a><!-- x</a>'],
    ['an unclosed CDATA section', '<a><![CDATA[x</a>'],
    ['an invalid name', '<1a/>'],
    ['text before the root', 'x<a/>'],
    ['text after the root', '<a/>x'],
    ['a second root', '<a/><b/>'],
    ['no root', '<!-- only a comment -->'],
  ])('refuses %s as malformed_xml', (_name, text) => {
    expect(failureOf(text)).toMatchObject({ code: 'malformed_xml' });
  });

  it('says where the XML is not well-formed', () => {
    expect(failureOf('<a>\n  <b>\n  </c>\n</a>')?.message).toBe(
      'The XML is not well-formed: unexpected close tag (line 3, column 6).',
    );
  });
});

describe('unwrapFramedFinvoice', () => {
  it('leaves an ordinary Finvoice (declaration, stylesheet, root) alone', () => {
    const bytes = encode('<?xml version="1.0"?>\n<?xml-stylesheet href="x.xsl"?>\n<Finvoice Version="3.0"></Finvoice>');
    expect(unwrapFramedFinvoice(bytes)).toBeNull();
  });

  it('cuts the Finvoice document out from behind a SOAP envelope, declaration included', () => {
    const finvoice =
      '<?xml version="1.0" encoding="ISO-8859-15"?>\n<?xml-stylesheet href="x.xsl"?>\n<Finvoice Version="3.0"></Finvoice>';
    const bytes = encode(
      `<SOAP-ENV:Envelope xmlns:SOAP-ENV="urn:s"><SOAP-ENV:Body/></SOAP-ENV:Envelope>\n${finvoice}\n`,
    );
    expect(new TextDecoder().decode(unwrapFramedFinvoice(bytes) ?? new Uint8Array())).toBe(finvoice);
  });

  it('reads a generic UBL file with an unknown customization, with a warning', async () => {
    const outcome = await parseChecked(
      encode('<Invoice><CustomizationID>urn:example:custom</CustomizationID><ID>9</ID></Invoice>'),
    );
    expect(outcome).toMatchObject({ kind: 'invoice', format: 'peppol_bis_3', invoice: { invoiceNumber: '9' } });
    if (outcome.kind === 'invoice') expect(outcome.warnings[0]).toContain('generic UBL 2.1');
  });

  it('records an unreadable amount as null with a warning', async () => {
    const outcome = await parseChecked(
      encode(
        '<Invoice><CustomizationID>urn:cen.eu:en16931:2017</CustomizationID><LegalMonetaryTotal><PayableAmount>12 EUR</PayableAmount></LegalMonetaryTotal></Invoice>',
      ),
    );
    expect(outcome).toMatchObject({ kind: 'invoice', invoice: { totals: { payable: null } } });
    if (outcome.kind === 'invoice')
      expect(outcome.warnings).toContain(
        'LegalMonetaryTotal/PayableAmount: "12 EUR" is not a decimal number and was ignored.',
      );
  });
});
