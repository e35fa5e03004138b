//! Descriptions are Markdown written for people, models and other languages, and rustdoc reads
//! them by its own rules. The fixture `tests/fixtures/descriptions` is full of what it reads its
//! own way: bare URLs, `[brackets]`, `<owner>/<repo>` placeholders, HTML, code blocks that name
//! no language (in a list and a quote too), a link whose target reads as a Rust path. Its
//! generated code (golden: `tests/golden/descriptions`) must document with no rustdoc warning
//! and hold no doctest, as the user's crate that includes it would. The same descriptions as
//! written must fail both checks, so the checks are known to see what they look for.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use schemcp_build::Builder;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/descriptions");

#[test]
fn descriptions_golden_documents_without_a_warning_or_a_doctest() {
    let generated = Builder::new().schemas_dir(FIXTURE).generate().unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    let code = &generated.files[0].1;
    expectorate::assert_contents("tests/golden/descriptions/schemcp_tools.rs", code);
    expectorate::assert_contents(
        "tests/golden/descriptions/tools.json",
        &generated.files[1].1,
    );

    let docs = doc_comments(code);
    // Every description reached the code.
    for start in [
        "Searches the issues",
        "The repository as",
        "Search terms.",
        "Only issues in this state",
        "One page of results",
        "Where the next page starts",
        "An issue, as",
        "The issue's number",
        "Its page:",
    ] {
        assert!(
            docs.iter().any(|doc| doc.contains(start)),
            "no `{start}` in {docs:#?}"
        );
    }

    let crate_dir = check_crate("generated", &generated_source(&docs));
    let doc = rustdoc(&crate_dir, &["-D", "warnings"]);
    assert!(
        doc.status.success() && doc.stderr.is_empty(),
        "rustdoc on the generated doc comments:\n{}",
        String::from_utf8_lossy(&doc.stderr)
    );
    let tests = rustdoc(&crate_dir, &["--test"]);
    let stdout = String::from_utf8_lossy(&tests.stdout);
    assert!(
        tests.status.success() && stdout.contains("running 0 tests"),
        "rustdoc --test on the generated doc comments:\n{stdout}{}",
        String::from_utf8_lossy(&tests.stderr)
    );
}

#[test]
fn the_same_descriptions_as_written_fail_both_checks() {
    let mut descriptions = Vec::new();
    let fixture = std::fs::read_to_string(Path::new(FIXTURE).join("search_issues.json")).unwrap();
    collect_descriptions(&serde_json::from_str(&fixture).unwrap(), &mut descriptions);
    assert_eq!(descriptions.len(), 9, "{descriptions:#?}");
    let mut source = String::new();
    for (n, text) in descriptions.iter().enumerate() {
        let literal = proc_macro2::Literal::string(text);
        source.push_str(&format!("#[doc = {literal}]\npub struct Description{n};\n"));
    }
    let crate_dir = check_crate("as-written", &source);

    let doc = rustdoc(&crate_dir, &["-D", "warnings"]);
    let stderr = String::from_utf8_lossy(&doc.stderr);
    assert!(!doc.status.success(), "{stderr}");
    for lint in [
        "this URL is not a hyperlink",
        "unresolved link to `guide`",
        "unresolved link to `Optional`",
        "unclosed HTML tag `owner`",
    ] {
        assert!(stderr.contains(lint), "no `{lint}` in:\n{stderr}");
    }
    let tests = rustdoc(&crate_dir, &["--test"]);
    let stdout = String::from_utf8_lossy(&tests.stdout);
    assert!(!tests.status.success(), "{stdout}");
    assert!(stdout.contains("FAILED"), "{stdout}");
}

/// Every doc comment in a printed file, each item's lines together (`///` lines, or a whole
/// `/** */` block), as written.
fn doc_comments(source: &str) -> Vec<String> {
    let mut groups = Vec::new();
    let mut current = String::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("///") {
            current.push_str(trimmed);
            current.push('\n');
        } else if let Some(rest) = trimmed.strip_prefix("/**") {
            current.push_str(trimmed);
            current.push('\n');
            let mut closed = rest.contains("*/");
            while !closed {
                let line = lines.next().expect("a `/**` comment is closed");
                current.push_str(line);
                current.push('\n');
                closed = line.contains("*/");
            }
        } else if !current.is_empty() {
            groups.push(std::mem::take(&mut current));
        }
    }
    groups
}

/// A crate with each doc comment on an item of its own. The generated glue's own docs link to
/// the trait and the `server` function, so items of those names stand in for them.
fn generated_source(docs: &[String]) -> String {
    let mut source = String::from("pub trait Tools {}\npub fn server() {}\n");
    for (n, doc) in docs.iter().enumerate() {
        source.push_str(doc);
        source.push_str(&format!("pub struct Doc{n};\n"));
    }
    source
}

fn collect_descriptions(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                match value {
                    serde_json::Value::String(text) if key == "description" => {
                        out.push(text.clone())
                    }
                    _ => collect_descriptions(value, out),
                }
            }
        }
        serde_json::Value::Array(items) => items
            .iter()
            .for_each(|item| collect_descriptions(item, out)),
        _ => {}
    }
}

/// Writes `lib.rs` into a fresh folder under the test target's scratch space.
fn check_crate(name: &str, source: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("descriptions-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), source).unwrap();
    dir
}

/// rustdoc on the crate in `dir` (the toolchain's, as Cargo would run it), with `args`.
fn rustdoc(dir: &Path, args: &[&str]) -> Output {
    let rustdoc = std::env::var_os("RUSTDOC").unwrap_or_else(|| "rustdoc".into());
    Command::new(rustdoc)
        .current_dir(dir)
        .args(["--edition", "2024", "--crate-type", "lib", "--crate-name"])
        .arg("described")
        .args(["-o", "doc"])
        .args(args)
        .arg("lib.rs")
        .output()
        .expect("rustdoc runs")
}
