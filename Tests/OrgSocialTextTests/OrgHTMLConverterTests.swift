import OrgSocialText
import Testing

/// The Org-to-HTML converter (the relay's RSS descriptions, `relay-api.md` §2.18, and the feed page's post bodies).
@Suite
struct OrgHTMLConverterTests {
    /// The five markup characters are escaped wherever they are, a combining mark after one included; other
    /// text, other scripts among it, is kept as it is.
    @Test func escapingReplacesEveryMarkupCharacter() {
        #expect(OrgHTMLConverter.escape("a&b<c>d\"e'f é 😀") == "a&amp;b&lt;c&gt;d&quot;e&#x27;f é 😀")
        #expect(OrgHTMLConverter.escape("<\u{301}script>&\u{301}") == "&lt;\u{301}script&gt;&amp;\u{301}")
        #expect(OrgHTMLConverter.escape("plain") == "plain")
        #expect(OrgHTMLConverter.escape("") == "")
        #expect(OrgHTMLConverter.unescape(OrgHTMLConverter.escape("x<&>\"'y")) == "x<&>\"'y")
    }

    @Test func orgIsConvertedToHTML() {
        let org = """
            *** Heading /one/
            First line
            second line with ~code~ and https://example.org/x.

            - item *one*
              continued
            - item two
            1. first

            #+BEGIN_SRC emacs-lisp
            (message "<hi>")
            #+END_SRC
            #+BEGIN_QUOTE
            Quoted [[https://a.example]]
            #+END_QUOTE
            | a | b |
            |---+---|
            | 1 | 2 |
            ***** Deep
            * Top
            Not*bold* and a*b*c and 2/3/4 and [[javascript:alert(1)][bad]]
            """
        let html = OrgHTMLConverter.html(from: org)
        let expected = [
            "<h1>Heading <i>one</i></h1>",
            "<p>First line\nsecond line with <code>code</code> and <a href=\"https://example.org/x\">https://example.org/x</a>.</p>",
            "<ul><li>item <b>one</b>\ncontinued</li><li>item two</li></ul>",
            "<ol><li>first</li></ol>",
            "<pre>(message &quot;&lt;hi&gt;&quot;)</pre>",
            "<blockquote>\n<p>Quoted <a href=\"https://a.example\">https://a.example</a></p>\n</blockquote>",
            "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>",
            "<h3>Deep</h3>",
            "<h1>Top</h1>",
            "<p>Not*bold* and a*b*c and 2/3/4 and bad</p>",
        ]
        #expect(html == expected.joined(separator: "\n"))
    }
}
