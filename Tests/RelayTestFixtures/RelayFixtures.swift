/// The relay's conformance fixtures: four small Org Social feeds of our own (alice, bob, carol, dave) that
/// reproduce the scenario of `relay-api.md` §7's request/response table.
///
/// Every feed is a function of `base`, the URL prefix the feeds are served under (no trailing slash, e.g.
/// `http://127.0.0.1:8801`); the feed URLs are `<base>/alice/social.org` and so on (see ``aliceURL(base:)``).
///
/// Expected answers once alice, bob and carol are indexed (and follows recorded), with `A`, `B`, `C` the
/// feed URLs. Orders follow the relay's deliberate difference 2 (parsed instant descending, ties by ID
/// string descending):
/// - `/feeds/`: `[A, B, C]` in registration order; dave is invalid (no `#+TITLE`/`#+NICK`/`#+DESCRIPTION`)
///   and is refused by `POST /feeds/` with `Invalid Org Social feed: Content does not appear to be a valid
///   Org Social file (missing basic metadata)`.
/// - `/mentions/?feed=B`: `["A#2025-02-01T10:00:00+0100"]`, `meta {"feed": B, "total": 1}`.
///   `/mentions/?feed=A`: `[]`.
/// - `/notifications/?feed=A`: 5 items: reaction `B#2025-02-05T09:00:00+0100` 👍 (mood with text),
///   reply `B#2025-02-03T13:00:00+0100` (parent `A#2025-02-03T12:00:00+0100`), boost `B#2025-02-02T11:00:00+0100`,
///   reaction `B#2025-02-01T11:05:00+0100` ❤, reply `B#2025-02-01T11:00:00+0100`;
///   `by_type {"mentions":0,"reactions":2,"replies":2,"boosts":1}`; bob's poll vote is not listed.
/// - `/notifications/?feed=B`: reaction `C#2025-02-01T07:30:00-0500` 🚀, reply `C#2025-02-01T07:00:00-0500`,
///   mention `A#2025-02-01T10:00:00+0100` (by instant; the reference's string sort puts the mention first).
/// - `/reactions/?feed=A`: 👍 `B#2025-02-05T09:00:00+0100` then ❤ `B#2025-02-01T11:05:00+0100`.
/// - `/replies-to/?feed=A`: `B#2025-02-03T13:00:00+0100` then `B#2025-02-01T11:00:00+0100`.
/// - `/boosts/?post=A#2025-02-01T10:00:00+0100`: `["B#2025-02-02T11:00:00+0100"]`.
/// - `/interactions/?post=A#2025-02-01T10:00:00+0100`: reactions 2 (👍, ❤), replies 1, boosts 1, `parentChain []`.
/// - `/interactions/?post=C#2025-02-01T07:00:00-0500`: `parentChain [A#…10:00…, B#…11:00…]`.
/// - `/replies/?post=A#2025-02-01T10:00:00+0100`: nodes `B#…11:00…` (child `C#…07:00…`, moods 🚀 `C#…07:30…`)
///   and `B#2025-02-05T09:00:00+0100`; `meta.moods` ❤ `B#…11:05…`.
/// - `/replies/?post=A#2025-02-02T09:00:00+0100` (the poll): the vote `B#2025-02-02T10:00:00+0100` is a node.
/// - `/search/?q=emacs`: 3 results: `C#2025-02-04T18:00:00-0500` (tag emacs-lisp),
///   `A#2025-02-02T09:00:00+0100` (poll body says Emacs), `A#2025-02-01T10:00:00+0100` (tag emacs).
/// - `/search/?tag=emacs`: only `A#2025-02-01T10:00:00+0100`.
/// - `/search/?q=e`: total 8; with `perPage=2&page=2`: `B#2025-02-03T13:00:00+0100`, `A#2025-02-03T12:00:00+0100`.
/// - `/groups/emacs/` (groups `Emacs,Org Social`): root `A#2025-02-03T12:00:00+0100` with child
///   `B#2025-02-03T13:00:00+0100`; members A and B.
/// - `/polls/`: `["A#2025-02-02T09:00:00+0100"]`; `POLL_END` `2099-01-01T00:00:00+0100` (served as
///   `2098-12-31T23:00:00+00:00`), options Emacs, Vim, Other.
/// - `/polls/votes/?post=A#2025-02-02T09:00:00+0100`: Emacs `[B#2025-02-02T10:00:00+0100]`, Vim `[]`, Other `[]`;
///   `total_votes 1`.
/// - `/profile/?feed=A`: followers `[B]`; `/profile/?feed=B`: followers `[A]`; `/profile/?feed=C`: `[A]`.
/// - `/stats/`: month `2025/02`: active_accounts 3, total_posts 12, posts 4, replies 5, boosts 1,
///   reactions 2, group_messages 2, polls 1; global registered_feeds 3, total_accounts 3, total_posts 12,
///   total_follows 3, active_groups 1.
/// - `/rss.xml?tag=emacs`: 1 item, `A#2025-02-01T10:00:00+0100`.
package enum RelayFixtures {
    /// alice's feed URL under `base`.
    package static func aliceURL(base: String) -> String { "\(base)/alice/social.org" }
    /// bob's feed URL under `base`.
    package static func bobURL(base: String) -> String { "\(base)/bob/social.org" }
    /// carol's feed URL under `base`.
    package static func carolURL(base: String) -> String { "\(base)/carol/social.org" }
    /// dave's feed URL under `base`.
    package static func daveURL(base: String) -> String { "\(base)/dave/social.org" }

    /// The groups the fixtures assume the relay enables.
    package static let groups = ["Emacs", "Org Social"]

    /// Every fixture as `(path relative to base, text)`, e.g. `("alice/social.org", …)`.
    package static func all(base: String) -> [(path: String, text: String)] {
        [
            ("alice/social.org", alice(base: base)), ("bob/social.org", bob(base: base)),
            ("carol/social.org", carol(base: base)), ("dave/social.org", dave(base: base)),
        ]
    }

    /// The three valid feeds as `(feed URL, text)`, in registration order alice, bob, carol.
    package static func validFeeds(base: String) -> [(url: String, text: String)] {
        [
            (aliceURL(base: base), alice(base: base)), (bobURL(base: base), bob(base: base)),
            (carolURL(base: base), carol(base: base)),
        ]
    }

    /// alice: a post mentioning bob (tag emacs), a poll, and a post in the Emacs group; follows bob and carol.
    package static func alice(base: String) -> String {
        """
        #+TITLE: Alice's journal
        #+NICK: alice
        #+DESCRIPTION: Notes about Emacs and Org
        #+AVATAR: \(base)/alice/avatar.png
        #+LINK: https://alice.example
        #+CONTACT: mailto:alice@example.com
        #+FOLLOW: bob \(bobURL(base: base))
        #+FOLLOW: \(carolURL(base: base))

        * Posts
        ** 2025-02-01T10:00:00+0100
        :PROPERTIES:
        :LANG: en
        :TAGS: emacs
        :CLIENT: org-social.el
        :END:

        Hello [[org-social:\(bobURL(base: base))][bob]], welcome to Org Social!

        ** 2025-02-02T09:00:00+0100
        :PROPERTIES:
        :POLL_END: 2099-01-01T00:00:00+0100
        :END:

        Which editor do you use?

        - [ ] Emacs
        - [ ] Vim
        - [ ] Other

        ** 2025-02-03T12:00:00+0100
        :PROPERTIES:
        :GROUP: Emacs https://relay.example
        :END:

        Group meetup this Friday?

        """
    }

    /// bob: a reply, a ❤ reaction, a poll vote, a boost, a group reply and a reply with a mood and text;
    /// follows alice.
    package static func bob(base: String) -> String {
        let alice = aliceURL(base: base)
        return """
            #+TITLE: Bob's notes
            #+NICK: bob
            #+DESCRIPTION: Bob writes here
            #+FOLLOW: alice \(alice)

            * Posts
            ** 2025-02-01T11:00:00+0100
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-01T10:00:00+0100
            :END:

            Thanks for the welcome!

            ** 2025-02-01T11:05:00+0100
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-01T10:00:00+0100
            :MOOD: ❤
            :END:

            ** 2025-02-02T10:00:00+0100
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-02T09:00:00+0100
            :POLL_OPTION: Emacs
            :END:

            ** 2025-02-02T11:00:00+0100
            :PROPERTIES:
            :INCLUDE: \(alice)#2025-02-01T10:00:00+0100
            :END:

            ** 2025-02-03T13:00:00+0100
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-03T12:00:00+0100
            :GROUP: Emacs https://relay.example
            :END:

            I will be there

            ** 2025-02-05T09:00:00+0100
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-01T10:00:00+0100
            :MOOD: 👍
            :END:

            Nice post

            """
    }

    /// carol (UTC-5): a reply and a 🚀 reaction to bob's first reply, and a post tagged emacs-lisp.
    package static func carol(base: String) -> String {
        let bob = bobURL(base: base)
        return """
            #+TITLE: Carol
            #+NICK: carol
            #+DESCRIPTION: Carol from the east coast

            * Posts
            ** 2025-02-01T07:00:00-0500
            :PROPERTIES:
            :REPLY_TO: \(bob)#2025-02-01T11:00:00+0100
            :END:

            Agreed with bob

            ** 2025-02-01T07:30:00-0500
            :PROPERTIES:
            :REPLY_TO: \(bob)#2025-02-01T11:00:00+0100
            :MOOD: 🚀
            :END:

            ** 2025-02-04T18:00:00-0500
            :PROPERTIES:
            :TAGS: emacs-lisp
            :END:

            Writing some elisp today

            """
    }

    /// dave: posts but no `#+TITLE`, `#+NICK` or `#+DESCRIPTION`, so the relay refuses it.
    package static func dave(base: String) -> String {
        """
        #+AVATAR: \(base)/dave/avatar.png

        * Posts
        ** 2025-02-06T08:00:00+0100
        :PROPERTIES:
        :END:

        Nobody knows who I am

        """
    }
}
