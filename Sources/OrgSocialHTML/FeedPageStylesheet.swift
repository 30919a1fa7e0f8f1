/// The one small stylesheet of ``FeedPage``: readable on a phone, dark-mode aware, no web fonts.
public enum FeedPageStylesheet {
    /// The path the node serves the stylesheet at. (No feed is ever served there: feeds end in
    /// `social.org`.)
    public static let path = "/orgsocial.css"

    /// The background of the post a URL's fragment points at (`article:target`), in the light scheme.
    /// The browser test looks for this colour in a screenshot to see that the anchor was scrolled to.
    package static let targetBackground = (red: UInt8(0xFF), green: UInt8(0xF1), blue: UInt8(0xB8))

    /// The stylesheet.
    public static let css = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5f6368; --bg: #fdfdfc; --card: #ffffff;
          --line: #e3e3e0; --accent: #6b3fa0; --target: #fff1b8; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e8e6e3; --muted: #a4a09a; --bg: #161618; --card: #1f1f22; --line: #34343a;
            --accent: #c7a4f2; --target: #3d3410; }
        }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 42rem; padding: 1rem; background: var(--bg); color: var(--fg);
          font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
        a { color: var(--accent); }
        .profile { text-align: center; padding: 1rem 0 1.5rem; border-bottom: 1px solid var(--line); }
        .avatar { border-radius: 50%; object-fit: cover; }
        .profile h1 { margin: .5rem 0 0; font-size: 1.6rem; }
        .nick, .facts, .context, .poll-end, .about, .post header { color: var(--muted); }
        .nick { margin: 0; }
        .facts { list-style: none; padding: 0; margin: .5rem 0 0; font-size: .9rem; }
        .facts li { display: inline; margin: 0 .5rem; }
        main { padding-top: 1rem; }
        .post { background: var(--card); border: 1px solid var(--line); border-radius: .75rem;
          padding: .75rem 1rem; margin: 0 0 1rem; scroll-margin-top: 1rem; }
        .post:target { background: var(--target); border-color: var(--accent); }
        .post header { font-size: .85rem; }
        .post header a { color: inherit; }
        .post .single { margin-left: .25rem; }
        .badge { background: var(--accent); color: var(--bg); border-radius: .3rem; padding: 0 .35rem; }
        .context { margin: .5rem 0 0; font-size: .9rem; }
        .mood { font-size: 1.2rem; }
        .body h3, .body h4, .body h5, .body h6 { margin: .75rem 0 .25rem; font-size: 1.05rem; }
        .body p { margin: .5rem 0; white-space: pre-line; }
        .body pre { overflow-x: auto; padding: .5rem; border-radius: .4rem; background: var(--bg);
          border: 1px solid var(--line); font-size: .85rem; }
        .body blockquote { margin: .5rem 0; padding-left: .75rem; border-left: 3px solid var(--line); }
        .body table { border-collapse: collapse; }
        .body td { border: 1px solid var(--line); padding: .2rem .5rem; }
        .poll-options { padding-left: 1.25rem; }
        .poll-options li { list-style: "☐  "; }
        .tags { margin: .5rem 0 0; font-size: .85rem; }
        .tag { color: var(--muted); }
        .pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1rem 0; }
        .about { font-size: .85rem; border-top: 1px solid var(--line); padding-top: 1rem; text-align: center; }

        """
}
