//! Doc comments written from schema descriptions, kept out of the package's doctests.
//!
//! rustdoc compiles and runs every code block in a doc comment that does not name another
//! language: a fence without an info string (`` ``` ``), one naming only rustdoc's own
//! attributes (`ignore`, `no_run`, ...), and a block indented four spaces. A description is
//! Markdown written for people and other languages (`` ```\nLondon\n``` ``), and the generated
//! code lives in the user's crate, so such a block made `cargo test` fail in a doctest of the
//! generated file (seen with `examples/weather`). Each is marked `text`, which rustdoc shows as
//! is and never compiles; blocks that name a language (`` ```json ``) are left alone. prost-build
//! does the same with protobuf comments.

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

/// `doc` with every code block rustdoc would test marked `text` (`a` then a bare fence around
/// `London` becomes the same with the fence opened as `` ```text ``); `None` when there is none.
pub(crate) fn untested(doc: &str) -> Option<String> {
    enum State {
        Prose,
        /// Inside a fenced block, closed by a line of at least this many of this character.
        Fenced(char, usize),
        /// Inside an indented block this module fenced.
        Indented,
    }
    let mut out = String::with_capacity(doc.len() + 16);
    let mut state = State::Prose;
    let mut changed = false;
    let mut previous_blank = true;
    for line in doc.split('\n') {
        let text = line.trim_start_matches([' ', '\t']);
        // Markdown counts a tab as reaching the next multiple of four columns.
        let indent = line[..line.len() - text.len()]
            .chars()
            .fold(0, |column, c| {
                if c == '\t' {
                    column / 4 * 4 + 4
                } else {
                    column + 1
                }
            });
        let blank = text.trim().is_empty();
        if let State::Indented = state
            && (blank || indent < 4)
        {
            out.push_str("```\n");
            state = State::Prose;
        }
        match state {
            State::Fenced(fence, length) => {
                let run = text.chars().take_while(|&c| c == fence).count();
                if indent < 4 && run >= length && text[run..].trim().is_empty() {
                    state = State::Prose;
                }
                out.push_str(line);
            }
            State::Indented => out.push_str(line),
            State::Prose => {
                let fence = text.chars().next().filter(|c| matches!(c, '`' | '~'));
                let run = fence.map_or(0, |f| text.chars().take_while(|&c| c == f).count());
                if let Some(fence) = fence.filter(|_| indent < 4 && run >= 3) {
                    let info = &text[run..];
                    state = State::Fenced(fence, run);
                    if is_rust(info) {
                        out.push_str(&line[..line.len() - text.len() + run]);
                        out.push_str("text");
                        changed = true;
                    } else {
                        out.push_str(line);
                    }
                } else if indent >= 4 && !blank && previous_blank {
                    out.push_str("```text\n");
                    out.push_str(line);
                    state = State::Indented;
                    changed = true;
                } else {
                    out.push_str(line);
                }
            }
        }
        out.push('\n');
        previous_blank = blank;
    }
    out.pop();
    if let State::Indented = state {
        out.push_str("\n```");
    }
    changed.then_some(out)
}

/// Whether rustdoc reads a fence with this info string as Rust.
fn is_rust(info: &str) -> bool {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .all(|word| RUST_ATTRIBUTES.contains(&word))
}

#[cfg(test)]
mod tests {
    use super::untested;

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
}
