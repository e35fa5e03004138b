//! Doc comments written from schema descriptions, shown by rustdoc as they were written.
//!
//! A description is Markdown written for people, for models and for other languages' tools, and
//! the generated code lives in the user's crate, where rustdoc reads it by its own rules:
//! - a code block that names no other language (a bare fence, one naming only rustdoc's own
//!   attributes such as `ignore`, a block indented four spaces) is compiled and run as a doctest,
//!   so the package's `cargo test` failed on a description's example (seen with
//!   `examples/weather`);
//! - `[word]` is an intra-doc link: it silently links to any item of that name (`[Vec]`), or is
//!   an `unresolved link` warning (`[1]`); so is a link whose target reads as a Rust path
//!   (`[the guide](guide)`);
//! - a URL that is not a link is a `bare_urls` warning;
//! - HTML is rendered: `City <name>` shows as `City `, with an `unclosed HTML tag` warning.
//!
//! So Rust code blocks are marked `text` (indented ones fenced as `text`), the brackets of text and
//! of such links and the `<` of HTML are escaped with a backslash, and bare URLs become autolinks
//! (`<https://...>`), as prost-build does with protobuf comments; autolinks are left as written.
//! The page shows the description as written, and a package that denies rustdoc's warnings
//! still builds its docs. Descriptions are parsed with pulldown-cmark, the parser rustdoc uses,
//! so a block inside a list or a quote is found where rustdoc finds it, and prose is never taken
//! for code.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

/// Info-string words rustdoc reads as a Rust code block's attributes: a fence with only these
/// is compiled and run.
const RUST_ATTRIBUTES: &[&str] = &[
    "rust",
    "ignore",
    "should_panic",
    "no_run",
    "compile_fail",
    "test_harness",
    "allow_fail",
    "standalone_crate",
    "edition2015",
    "edition2018",
    "edition2021",
    "edition2024",
];

/// `doc` rewritten so that rustdoc shows it as written and neither tests, links nor warns about
/// any of it (`City <name>, see https://example.com` becomes
/// `City \<name>, see <https://example.com>`); `None` when it needs no change.
pub(crate) fn for_rustdoc(doc: &str) -> Option<String> {
    if plain(doc) {
        return None;
    }
    let mut rewritten: Option<String> = None;
    // Escaping an HTML block's `<` makes it a paragraph, whose brackets and URLs then need the
    // same care, so passes repeat until one changes nothing. Each pass only escapes syntax the
    // previous one left, so two or three suffice; the bound only guards against a bug.
    for _ in 0..8 {
        let current = rewritten.as_deref().unwrap_or(doc);
        let mut edits = edits(current);
        if edits.is_empty() {
            break;
        }
        rewritten = Some(apply(current, &mut edits));
    }
    rewritten
}

/// Whether `doc` has nothing rustdoc reads its own way, so needs no parse: most descriptions are
/// plain sentences, and a generator run may hold thousands of them. Any bracket, angle bracket,
/// backtick, tilde, tab, URL or run of four spaces (an indented block, perhaps after a list
/// marker) sends it to the parser.
fn plain(doc: &str) -> bool {
    !doc.bytes()
        .any(|b| matches!(b, b'[' | b']' | b'<' | b'>' | b'`' | b'~' | b'\t'))
        && !doc.contains("http")
        && !doc.contains("    ")
}

/// The Markdown extensions rustdoc enables, less smart punctuation, which changes no structure.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// Text to write in place of a range of the description (at an empty range: to insert).
struct Edit {
    at: Range<usize>,
    with: String,
}

fn insert(at: usize, with: &str) -> Edit {
    Edit {
        at: at..at,
        with: with.to_string(),
    }
}

/// What one pass over `doc` changes.
fn edits(doc: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    let mut in_code = false;
    let mut links: Vec<Open> = Vec::new();
    // Where the last event ended: a link's text closes at the first `]` after its last event.
    let mut last_end = 0;
    // Adjoining text outside code (pulldown-cmark splits it at brackets, escapes and entities),
    // and whether it is a link's text.
    let mut run: Option<(Range<usize>, bool)> = None;
    for (event, range) in Parser::new_ext(doc, options()).into_offset_iter() {
        let prose = matches!(event, Event::Text(_))
            && !in_code
            && !matches!(links.last(), Some(Open::Verbatim));
        if let Some((text, in_link)) = run.take_if(|(text, _)| !prose || text.end != range.start) {
            edits.extend(prose_edits(doc, text, in_link));
        }
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code = true;
                match kind {
                    CodeBlockKind::Fenced(info) if is_rust(&info) => {
                        edits.extend(info_as_text(doc, range.start));
                    }
                    CodeBlockKind::Fenced(_) => {}
                    CodeBlockKind::Indented => edits.extend(fenced_as_text(doc, range.clone())),
                }
            }
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Start(Tag::Link {
                link_type,
                ref dest_url,
                ..
            }) => {
                links.push(match link_type {
                    LinkType::Autolink | LinkType::Email => Open::Verbatim,
                    _ if item_path(dest_url) => Open::ItemPath(range.start),
                    _ => Open::Other,
                });
                last_end = range.start + 1;
                continue;
            }
            Event::Start(Tag::Image { .. }) => {
                links.push(Open::Other);
                last_end = range.start + 1;
                continue;
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some(Open::ItemPath(start)) = links.pop()
                    && let Some(close) = doc[last_end..range.end].find(']')
                {
                    edits.push(insert(start, "\\"));
                    edits.push(insert(last_end + close, "\\"));
                }
            }
            Event::Text(_) if prose => {
                run = Some(match run.take() {
                    Some((text, in_link)) => (text.start..range.end, in_link),
                    None => (range.clone(), !links.is_empty()),
                });
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                edits.extend(
                    doc[range.clone()]
                        .match_indices('<')
                        .map(|(at, _)| insert(range.start + at, "\\")),
                );
            }
            _ => {}
        }
        last_end = range.end;
    }
    if let Some((text, in_link)) = run {
        edits.extend(prose_edits(doc, text, in_link));
    }
    edits
}

/// A link or image being read.
enum Open {
    /// An autolink (`<https://...>`): its text is the URL as written, where a backslash shows.
    Verbatim,
    /// A link rustdoc would resolve as an item path, from here: it is shown as text instead.
    ItemPath(usize),
    Other,
}

/// `doc` with `edits` made, in order of position (edits at one position in the order found).
fn apply(doc: &str, edits: &mut [Edit]) -> String {
    edits.sort_by_key(|edit| edit.at.start);
    let mut out = String::with_capacity(doc.len() + 8 * edits.len());
    let mut from = 0;
    for edit in edits.iter() {
        // Edits never overlap (each is at syntax of its own); were one to, it is dropped
        // rather than a build script made to panic.
        if edit.at.start < from {
            debug_assert!(false, "overlapping edits in {doc:?}");
            continue;
        }
        out.push_str(&doc[from..edit.at.start]);
        out.push_str(&edit.with);
        from = edit.at.end;
    }
    out.push_str(&doc[from..]);
    out
}

/// Text outside code: bare URLs become autolinks (not inside a link's text, where a link cannot
/// nest), and brackets not already escaped are escaped. A URL ends before a bracket
/// ([`bare_urls`]), so no escape lands inside an autolink, where it would show.
fn prose_edits(doc: &str, text: Range<usize>, in_link: bool) -> Vec<Edit> {
    let urls = if in_link {
        Vec::new()
    } else {
        bare_urls(doc, text.clone())
    };
    let mut edits = Vec::new();
    for url in &urls {
        edits.push(insert(url.start, "<"));
        edits.push(insert(url.end, ">"));
    }
    for (offset, byte) in doc[text.clone()].bytes().enumerate() {
        let at = text.start + offset;
        // pulldown-cmark leaves an escaping backslash out of the text, so only a bracket at the
        // start of the run can follow one.
        let escaped = offset == 0 && doc[..at].ends_with('\\');
        if matches!(byte, b'[' | b']') && !escaped {
            edits.push(insert(at, "\\"));
        }
    }
    edits
}

/// The `http://` and `https://` URLs in `doc[text]`, less trailing punctuation as GitHub's
/// Markdown leaves it out (`see https://example.com.` ends before the dot).
fn bare_urls(doc: &str, text: Range<usize>) -> Vec<Range<usize>> {
    let slice = &doc[text.clone()];
    let mut urls = Vec::new();
    let mut from = 0;
    while let Some(found) = slice[from..].find("http") {
        let start = from + found;
        let rest = &slice[start..];
        let Some(scheme) = ["https://", "http://"]
            .into_iter()
            .find(|scheme| rest.starts_with(scheme))
        else {
            from = start + 4;
            continue;
        };
        let host = start + scheme.len();
        let body_end = slice[host..]
            .find(|c: char| {
                c.is_whitespace()
                    || c.is_control()
                    || matches!(c, '<' | '>' | '"' | '`' | '[' | ']')
            })
            .map_or(slice.len(), |n| host + n);
        let mut end = body_end;
        while end > host {
            let url = &slice[start..end];
            let drop = match url.as_bytes()[url.len() - 1] {
                b'.' | b',' | b':' | b';' | b'!' | b'?' | b'*' | b'_' | b'~' | b'\'' => true,
                b')' => url.matches(')').count() > url.matches('(').count(),
                _ => false,
            };
            if !drop {
                break;
            }
            end -= 1;
        }
        if end > host {
            urls.push(text.start + start..text.start + end);
        }
        from = body_end.max(host);
    }
    urls
}

/// A fenced block's info string replaced by `text`; `start` is its opening fence.
fn info_as_text(doc: &str, start: usize) -> Option<Edit> {
    let line_end = doc[start..].find('\n').map_or(doc.len(), |n| start + n);
    // pulldown-cmark starts a fenced block at its fence; anything else is left as it is.
    let fence = *doc
        .as_bytes()
        .get(start)
        .filter(|b| matches!(b, b'`' | b'~'))?;
    let info = start
        + doc[start..line_end]
            .bytes()
            .take_while(|&b| b == fence)
            .count();
    Some(Edit {
        at: info..line_end,
        with: "text".into(),
    })
}

/// An indented block (`block`: from its first line's code to the end of its last line) fenced
/// as `text`, its lines kept as they are. The fences stand four columns left of the code, so the
/// block stays where it was: the opening one takes the first line's quote markers and list
/// marker (`1.     code` is a list item that starts with the block), and the code line and the
/// closing fence the same width of quote markers and spaces.
fn fenced_as_text(doc: &str, block: Range<usize>) -> [Edit; 2] {
    let line_start = doc[..block.start].rfind('\n').map_or(0, |n| n + 1);
    let lead = &doc[line_start..block.start];
    let fence_column = column(lead).saturating_sub(4);
    let mut taken = 0;
    for (offset, c) in lead.char_indices() {
        if column(&lead[..offset + c.len_utf8()]) > fence_column {
            break;
        }
        taken = offset + c.len_utf8();
    }
    let mut prefix = lead[..taken].to_string();
    while column(&prefix) < fence_column {
        prefix.push(' ');
    }
    // Quote markers repeat on every line of a quote; a list marker only opens its item.
    let continuation: String = prefix
        .chars()
        .map(|c| if c == '>' { '>' } else { ' ' })
        .collect();
    // Longer than any run of backticks in the code, so nothing in it closes the fence.
    let longest = doc[block.clone()]
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let close = if doc[..block.end].ends_with('\n') {
        format!("{continuation}{fence}\n")
    } else {
        format!("\n{continuation}{fence}")
    };
    [
        Edit {
            at: line_start..line_start + taken,
            with: format!("{prefix}{fence}text\n{continuation}"),
        },
        Edit {
            at: block.end..block.end,
            with: close,
        },
    ]
}

/// The column `text` ends at, with tabs reaching the next multiple of four as in Markdown.
fn column(text: &str) -> usize {
    text.chars().fold(0, |column, c| {
        if c == '\t' {
            column / 4 * 4 + 4
        } else {
            column + 1
        }
    })
}

/// Whether rustdoc reads a fence with this info string as Rust.
fn is_rust(info: &str) -> bool {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .all(|word| RUST_ATTRIBUTES.contains(&word))
}

/// Whether rustdoc would try to resolve a link to `dest` as an item path (`guide`, `Vec`,
/// `crate::Type#method`): its check lets through only these characters, and no `/`.
fn item_path(dest: &str) -> bool {
    let dest = dest.replace('`', "");
    let path = dest.split('#').next().unwrap_or_default().trim();
    !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_alphanumeric() || ":_<>, !*&;@()".contains(c))
}

#[cfg(test)]
mod tests {
    use super::for_rustdoc;
    use super::for_rustdoc as untested;

    /// `doc` as rustdoc will be given it; checks that a second pass changes nothing.
    fn shown(doc: &str) -> String {
        let out = for_rustdoc(doc).unwrap_or_else(|| doc.to_string());
        assert_eq!(for_rustdoc(&out), None, "a second pass changed {out:?}");
        out
    }

    #[test]
    fn fences_rustdoc_would_compile_are_text() {
        assert_eq!(
            untested("City, e.g.:\n```\nLondon\n```\nand more").as_deref(),
            Some("City, e.g.:\n```text\nLondon\n```\nand more")
        );
        assert_eq!(
            untested("~~~~ no_run\nx\n~~~~").as_deref(),
            Some("~~~~text\nx\n~~~~")
        );
        assert_eq!(
            untested("```rust,ignore\nfn f() {}\n```").as_deref(),
            Some("```text\nfn f() {}\n```")
        );
    }

    #[test]
    fn indented_blocks_are_fenced_as_text() {
        assert_eq!(
            untested("Run:\n\n    curl -s x\n    | jq\n\nThen.").as_deref(),
            Some("Run:\n\n```text\n    curl -s x\n    | jq\n```\n\nThen.")
        );
        assert_eq!(
            untested("    at the end").as_deref(),
            Some("```text\n    at the end\n```")
        );
        assert_eq!(
            untested("Tab:\n\n\tx = 1").as_deref(),
            Some("Tab:\n\n```text\n\tx = 1\n```")
        );
    }

    #[test]
    fn other_languages_and_prose_are_left_alone() {
        for doc in [
            "Plain prose with `code`.",
            "```json\n{\"a\": 1}\n```",
            "A list:\n- one\n    continued",
            // Inside a block that names a language, nothing is a fence or an indented block.
            "```python\n    x = 1\n```\n",
            "",
        ] {
            assert_eq!(untested(doc), None, "{doc:?}");
        }
        // A fence inside another (longer) fence is content.
        assert_eq!(untested("````markdown\n```\nx\n```\n````"), None);
    }

    #[test]
    fn brackets_are_text_not_intra_doc_links() {
        assert_eq!(
            shown("Mirrors [Issue::state]; see [1] and [Vec]."),
            r"Mirrors \[Issue::state\]; see \[1\] and \[Vec\]."
        );
        // Undefined reference links are text too; escaped brackets and a literal backslash stay.
        assert_eq!(shown("[a][ref] [b][]"), r"\[a\]\[ref\] \[b\]\[\]");
        assert_eq!(shown(r"\[x\] and \\[y]"), r"\[x\] and \\\[y\]");
        // In inline code nothing is a link.
        assert_eq!(for_rustdoc("`v[0]` and `[x]`"), None);
    }

    #[test]
    fn links_rustdoc_would_resolve_as_paths_are_text() {
        assert_eq!(
            shown("as [the guide](guide) says"),
            r"as \[the guide\](guide) says"
        );
        assert_eq!(shown("[*see*](Vec)"), r"\[*see*\](Vec)");
        // Links to pages, fragments and defined references stay links.
        for doc in [
            "[the API](https://example.com/api)",
            "[notes](docs/notes.md) and [below](#limits)",
            "See [the API][api].\n\n[api]: https://example.com/api",
            "<https://example.com>",
        ] {
            assert_eq!(for_rustdoc(doc), None, "{doc:?}");
        }
    }

    #[test]
    fn bare_urls_become_autolinks() {
        assert_eq!(
            shown("See https://example.com/api."),
            "See <https://example.com/api>."
        );
        assert_eq!(
            shown("(see http://a.example/x_(y)), then https://b.example?"),
            "(see <http://a.example/x_(y)>), then <https://b.example>?"
        );
        // A URL that runs into a placeholder ends there; the placeholder is text.
        assert_eq!(
            shown("https://example.com/<owner>/issues"),
            r"<https://example.com/>\<owner>/issues"
        );
        // An autolink is shown as written: a backslash there would show.
        assert_eq!(for_rustdoc("<http://a.example/[x]>"), None);
        // Not inside a link's text, code, or a scheme alone.
        for doc in [
            "[https://example.com](https://example.com)",
            "`curl https://example.com`",
            "http:// alone, httpd and https",
        ] {
            assert_eq!(for_rustdoc(doc), None, "{doc:?}");
        }
    }

    #[test]
    fn html_is_shown_as_written() {
        assert_eq!(
            shown("The repository as <owner>/<repo>.<br>Opaque: <b>x</b>"),
            r"The repository as \<owner>/\<repo>.\<br>Opaque: \<b>x\</b>"
        );
        // An HTML block becomes a paragraph, whose brackets and URLs are then seen to.
        assert_eq!(
            shown("<details>\n<summary>[more] https://example.com</summary>\n</details>"),
            "\\<details>\n\\<summary>\\[more\\] <https://example.com>\\</summary>\n\\</details>"
        );
        assert_eq!(for_rustdoc("`<T>` and a < b"), None);
    }

    #[test]
    fn blocks_in_lists_and_quotes_are_fenced_where_they_stand() {
        assert_eq!(
            shown("- item\n\n      code\n  more"),
            "- item\n\n  ```text\n      code\n  ```\n  more"
        );
        assert_eq!(
            shown("> q\n>\n>     code\n> after"),
            "> q\n>\n> ```text\n>     code\n> ```\n> after"
        );
        assert_eq!(
            shown("- a\n  ```rust\n  fn f() {}\n  ```"),
            "- a\n  ```text\n  fn f() {}\n  ```"
        );
        // A fence inside an indented block does not close the one that fences it.
        assert_eq!(shown("    ```\n    x"), "````text\n    ```\n    x\n````");
        // Prose under a list item, indented four spaces, is not code.
        assert_eq!(for_rustdoc("- one\n\n    two"), None);
        // A list item that starts with the block keeps its marker on the opening fence.
        assert_eq!(
            shown("1.     code\n   more"),
            "1. ```text\n       code\n   ```\n   more"
        );
        assert_eq!(shown("1.      1. "), "1. ```text\n        1. \n   ```");
    }

    /// What rustdoc would read its own way in `doc`, parsed as it parses: HTML, a code block it
    /// would test, bracketed text or a link it would resolve as an item path, a bare URL.
    fn read_its_own_way(doc: &str) -> Option<String> {
        use pulldown_cmark::{CodeBlockKind, Event, LinkType, Parser, Tag};
        // rustdoc asks, for every bracketed text that is no link, whether it names an item.
        let mut asked = Vec::new();
        let callback = |link: pulldown_cmark::BrokenLink<'_>| {
            asked.push(format!("{:?}", link.reference));
            None
        };
        Parser::new_with_broken_link_callback(doc, super::options(), Some(callback)).for_each(drop);
        if let Some(reference) = asked.first() {
            return Some(format!(
                "a bracketed {reference}, which rustdoc resolves as an item"
            ));
        }
        let mut in_code = false;
        let mut links = 0;
        for (event, range) in Parser::new_ext(doc, super::options()).into_offset_iter() {
            let found = match &event {
                Event::Html(_) | Event::InlineHtml(_) => Some("HTML"),
                Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => Some("an indented block"),
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                    if super::is_rust(info) =>
                {
                    Some("a Rust block")
                }
                // rustdoc never resolves an autolink (`<https://...>`) as an item.
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    ..
                }) if !matches!(link_type, LinkType::Autolink | LinkType::Email)
                    && super::item_path(dest_url) =>
                {
                    Some("an item path link")
                }
                Event::Text(text) if !in_code && links == 0 && has_url(text) => Some("a bare URL"),
                _ => None,
            };
            if let Some(found) = found {
                return Some(format!("{found} at {range:?}: {:?}", &doc[range.clone()]));
            }
            match event {
                Event::Start(Tag::CodeBlock(_)) => in_code = true,
                Event::End(pulldown_cmark::TagEnd::CodeBlock) => in_code = false,
                Event::Start(Tag::Link { .. } | Tag::Image { .. }) => links += 1,
                Event::End(pulldown_cmark::TagEnd::Link | pulldown_cmark::TagEnd::Image) => {
                    links -= 1
                }
                _ => {}
            }
        }
        None
    }

    /// Whether `text` holds what rustdoc's `bare_urls` lint flags: a scheme, then a host with a
    /// dot before letters (its pattern asks for a top-level domain).
    fn has_url(text: &str) -> bool {
        ["http://", "https://"].iter().any(|scheme| {
            text.match_indices(scheme).any(|(at, _)| {
                let host: String = text[at + scheme.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "-@:%._+~#=".contains(*c))
                    .collect();
                host.split('.')
                    .skip(1)
                    .any(|label| label.len() >= 2 && label.chars().all(|c| c.is_ascii_alphabetic()))
            })
        })
    }

    #[test]
    fn nothing_is_read_its_own_way_in_any_mix_of_markdown() {
        // Descriptions pieced together from Markdown's significant tokens, by a fixed
        // pseudo-random sequence: the result must never panic, must leave nothing rustdoc reads
        // its own way, and a second pass must change nothing.
        const TOKENS: &[&str] = &[
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "`",
            "```",
            "~~~",
            "\n",
            "\n\n",
            "    ",
            "\t",
            "> ",
            "- ",
            "1. ",
            "http://",
            "https://a.example/x",
            "\\",
            "*",
            "_",
            "!",
            "#",
            "&amp;",
            "é",
            "x",
            "Vec",
            " ",
            "|",
            "[^1]",
            ":",
            "rust",
            "<b>",
            "</b>",
            "[a](b)",
            "[a]: b",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let length = 1 + next() % 24;
            let doc: String = (0..length)
                .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
                .collect();
            let shown = for_rustdoc(&doc).unwrap_or_else(|| doc.clone());
            if let Some(found) = read_its_own_way(&shown) {
                panic!("{doc:?} became {shown:?}, which still has {found}");
            }
            assert_eq!(for_rustdoc(&shown), None, "{doc:?} became {shown:?}");
        }
    }
}
