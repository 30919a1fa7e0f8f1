import OrgSocialText
import Testing

/// Org → Mastodon plain text (`mastodon-api.md` §4.6).
@Suite
struct MastodonTextRendererTests {
    @Test func linksMentionsMarkupBlocksAndTagsBecomePlainText() {
        let body = """
            Hello [[org-social:https://bob.example/social.org][bob]] and [[org-social:https://carol.example/social.org][carol]]!
            Read [[https://example.com/a][this *article*]] and [[https://example.com/b][https://example.com/b]] or [[https://example.com/c]] or [[example.com/d]] https://bare.example/x.
            *Bold*, /italic/, _under_, +strike+, =verb= and ~code~ stay text; a*b*c too.

            #+BEGIN_SRC python
            print('*x*')
            ,* star
            #+END_SRC

            #+begin_quote
            Quoted /wisdom/
            #+end_quote
            #+TITLE: dropped
            # a comment
            *** A title
            [[file:pic.png][a picture]] [[org-social:https://dave.example/social.org]]
            """
        let renderer = MastodonTextRenderer(bridgedAccounts: [
            "https://carol.example/social.org": "@carol@masto.example"
        ])
        let text = renderer.text(fromOrg: body, tags: ["org-social", "emacs", "2024", "Hello", "#emacs"])
        #expect(
            text == """
                Hello bob (https://bob.example/social.org) and @carol@masto.example!
                Read this article (https://example.com/a) and https://example.com/b or https://example.com/c or example.com/d https://bare.example/x.
                Bold, italic, under, strike, verb and code stay text; a*b*c too.

                print('*x*')
                * star

                > Quoted wisdom
                A title
                a picture https://dave.example/social.org

                #org_social #emacs #Hello
                """)
    }

    @Test func tagsAlreadyInTheTextAreNotRepeated() {
        let renderer = MastodonTextRenderer()
        #expect(
            renderer.text(fromOrg: "I love #Emacs and #org_mode", tags: ["emacs", "org-mode", "new"])
                == "I love #Emacs and #org_mode\n\n#new")
        #expect(renderer.text(fromOrg: "", tags: ["solo"]) == "#solo")
        #expect(renderer.text(fromOrg: "a/#notatag", tags: ["notatag"]) == "a/#notatag\n\n#notatag")
    }

    @Test func hashtagsAreSanitisedToWhatMastodonLinks() {
        #expect(MastodonTextRenderer.hashtag(for: "org-social") == "#org_social")
        #expect(MastodonTextRenderer.hashtag(for: "#emacs") == "#emacs")
        #expect(MastodonTextRenderer.hashtag(for: "c++") == "#c")
        #expect(MastodonTextRenderer.hashtag(for: "日本語") == "#日本語")
        #expect(MastodonTextRenderer.hashtag(for: "2024") == nil)
        #expect(MastodonTextRenderer.hashtag(for: "--") == nil)
        #expect(MastodonTextRenderer.hashtag(for: "a--b__c") == "#a_b__c")
    }

    @Test func escapesFromHTMLOrgAreUndone() {
        let renderer = MastodonTextRenderer()
        #expect(
            renderer.text(fromOrg: "\u{200B}* star line\n[\u{200B}[literal]] text") == "* star line\n[[literal]] text")
    }

    @Test func whitespaceIsTidied() {
        let renderer = MastodonTextRenderer()
        #expect(renderer.text(fromOrg: "\n\n  a  \r\n\r\n\r\n\nb\t\n\n") == "  a\n\nb")
    }
}
