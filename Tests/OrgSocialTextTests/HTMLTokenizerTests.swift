import Testing

@testable import OrgSocialText

/// The tolerant HTML tokenizer, character references and the tree builder.
@Suite
struct HTMLTokenizerTests {
    @Test func readsTagsAttributesAndText() {
        let tokens = HTMLTokenizer.tokens(
            #"<P Class="a b" data-x='1' rel=tag hidden>x &amp; y<br/><A HREF="h?a=1&amp;b=2">l</A></p>"#)
        #expect(
            tokens == [
                .startTag(
                    name: "p", attributes: ["class": "a b", "data-x": "1", "rel": "tag", "hidden": ""],
                    selfClosing: false),
                .text("x & y"),
                .startTag(name: "br", attributes: [:], selfClosing: true),
                .startTag(name: "a", attributes: ["href": "h?a=1&b=2"], selfClosing: false),
                .text("l"),
                .endTag(name: "a"),
                .endTag(name: "p"),
            ])
    }

    @Test func anAmpersandJoinedWithAMarkStaysAsWritten() {
        // U+0301 after `&` and U+0600 (a prepending mark) before it make one character with it: no reference.
        #expect(HTMLEntities.decode("a&\u{301}amp; b") == "a&\u{301}amp; b")
        #expect(HTMLEntities.decode("\u{600}&amp; &amp;") == "\u{600}&amp; &")
        #expect(HTMLEntities.decode("é&amp;x") == "é&x")
        let tag = HTMLToken.startTag(name: "p", attributes: ["class": "x"], selfClosing: false)
        #expect(HTMLTokenizer.tokens("<P CLASS=x>") == [tag])
    }

    @Test func skipsCommentsDeclarationsScriptsAndStyles() {
        let tokens = HTMLTokenizer.tokens(
            "<!DOCTYPE html><!-- a <p> -->a<script>if (1 < 2) { x('</p>') }</script >b<style>p{}</STYLE>c<?xml x?>d")
        #expect(tokens == [.text("a"), .text("b"), .text("c"), .text("d")])
    }

    @Test func aLessThanThatOpensNothingIsText() {
        #expect(
            HTMLTokenizer.tokens("1 < 2 <3 </ x> <") == [
                .text("1 "), .text("< 2 "), .text("<3 "), .text(" "), .text("<"),
            ])
    }

    @Test func aTagCutOffByTheEndIsDropped() {
        #expect(HTMLTokenizer.tokens("ok<a href=\"x") == [.text("ok")])
        #expect(HTMLTokenizer.tokens("ok</a") == [.text("ok")])
        #expect(HTMLTokenizer.tokens("ok<!-- never closed") == [.text("ok")])
        #expect(HTMLTokenizer.tokens("<script>alert(1)") == [])
    }

    @Test func decodesNamedAndNumericReferences() {
        #expect(HTMLEntities.decode("&lt;&gt;&quot;&#39;&apos;&amp;&nbsp;"[...]) == "<>\"''&\u{A0}")
        #expect(HTMLEntities.decode("&eacute;&Eacute;&hellip;&mdash;&euro;&omega;&Omega;&yuml;"[...]) == "éÉ…—€ωΩÿ")
        #expect(HTMLEntities.decode("&#233;&#xE9;&#XE9;&#x1F600;&#128512"[...]) == "ééé😀😀")
        #expect(HTMLEntities.decode("&#0;&#xD800;&#x110000;&#99999999999;"[...]) == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(
            HTMLEntities.decode("&unknown; &amp &lt3 &eacute &# &#x; & ;"[...]) == "&unknown; & <3 &eacute &# &#x; & ;")
        #expect(HTMLEntities.named.count > 250)
        #expect(HTMLEntities.named["nbsp"] == "\u{A0}" && HTMLEntities.named["yuml"] == "ÿ")
        #expect(HTMLEntities.named["times"] == "×" && HTMLEntities.named["divide"] == "÷")
    }

    @Test func theTreeClosesMisnestedAndUnclosedElements() {
        let nodes = HTMLTree.parse("<p>a <b>b <i>c</b> d</i></p><p>e<p>f</div>")
        #expect(
            nodes == [
                .element(
                    HTMLElement(
                        name: "p", attributes: [:],
                        children: [
                            .text("a "),
                            .element(
                                HTMLElement(
                                    name: "b", attributes: [:],
                                    children: [
                                        .text("b "),
                                        .element(HTMLElement(name: "i", attributes: [:], children: [.text("c")])),
                                    ])),
                            .text(" d"),
                        ])),
                .element(HTMLElement(name: "p", attributes: [:], children: [.text("e")])),
                .element(HTMLElement(name: "p", attributes: [:], children: [.text("f")])),
            ])
    }

    @Test func listItemsCloseTheOpenItemAndDeepNestingIsFlattened() {
        let nodes = HTMLTree.parse("<ul><li>a<li>b<ul><li>c</ul></ul>")
        guard case .element(let list) = nodes.first else {
            Issue.record("no list")
            return
        }
        #expect(list.children.count == 2)
        let deep = String(repeating: "<span>", count: 10_000) + "x" + String(repeating: "</span>", count: 10_000)
        var depth = 0
        var level = HTMLTree.parse(deep)
        while case .element(let element)? = level.first {
            depth += 1
            level = element.children
        }
        #expect(depth <= HTMLTree.maximumDepth + 1)
        #expect(level == [.text("x")])
    }
}
