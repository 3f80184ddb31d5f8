import Testing

@testable import TributaryHTML

/// HTML's character references and its `<`, read as browsers read them in text.
struct HTMLTextTests {
    @Test(arguments: [
        // HTML 4's names, HTML5's, and one that stands for two characters.
        ("caf&eacute; &mdash; &hellip; &rsquo;&nbsp;", "café — … ’\u{A0}"),
        ("&check; &starf; &notin; &fjlig; &NotEqualTilde;", "✓ ★ ∉ fj \u{2242}\u{338}"),
        // HTML 4's names without their semicolon, but not where a longer name or a value goes on.
        ("&copy 2024 &amp more", "© 2024 & more"), ("?a=1&copy=2 &copyright", "?a=1&copy=2 &copyright"),
        // Numbers: 128 to 159 as Windows-1252; zero, surrogates and past Unicode as U+FFFD.
        ("&#150;&#x93;&#146;", "–“’"),
        ("&#0; &#xD800; &#x110000; &#99999999999;", "\u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}"),
        // What names nothing stays as written.
        ("AT&T &bogus; & &#; &#x;", "AT&T &bogus; & &#; &#x;"),
    ])
    func decodesReferences(text: String, decoded: String) {
        #expect(HTMLText.decodeEntities(text) == decoded)
    }

    @Test(arguments: [
        ("a < b and 3 <= 4 <3", "a < b and 3 <= 4 <3"), ("x <b>bold</b> < y", "x bold < y"),
        ("<p>1 &lt; 2</p>", "1 < 2"),
    ])
    func keepsALessThanSignThatOpensNoTag(html: String, text: String) {
        #expect(HTMLText.plain(html) == text)
    }

    /// A script's or style sheet's source, and a comment, are no text, whatever `>` they hold.
    @Test(arguments: [
        ("safe<script type=\"text/javascript\">location.href='x';</script> description", "safe description"),
        ("<style>p > b { color: red }</style>Styled", "Styled"),
        ("before<!-- a <b>comment</b> > with a bracket -->after", "beforeafter"),
        ("<SCRIPT>one()</SCRIPT>shown<script>two()</script>", "shown"),
    ])
    func leavesOutScriptsStylesAndComments(html: String, text: String) {
        #expect(HTMLText.plain(html) == text)
    }
}
