//! `schemcp check` on every deliberately broken contract folder of `schemcp-contract`
//! (`crates/schemcp-contract/tests/fixtures/broken/*`): it must exit 1 (0 for a folder that only
//! warns) and print each diagnostic of the folder's `expected.txt`: the file, line and column,
//! the code and the exact message.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_schemcp");

#[path = "../crates/schemcp-contract/tests/fixtures/broken_cases.rs"]
mod broken_cases;

fn cases() -> Vec<PathBuf> {
    broken_cases::broken_cases(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Text without the renderer's frame, line wrapping and whitespace (the renderer may wrap a
/// long message anywhere, even inside a path).
fn flatten(text: &str) -> String {
    text.replace(['│', '×', '⚠'], " ")
        .split_whitespace()
        .collect::<String>()
}

#[test]
fn check_prints_exactly_the_expected_diagnostics() {
    for case in cases() {
        let expected = std::fs::read_to_string(case.join("expected.txt")).unwrap();
        let out = Command::new(BIN)
            .args(["check", "."])
            .current_dir(&case)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let errors = expected.contains(": error[");
        assert_eq!(
            out.status.code(),
            Some(if errors { 1 } else { 0 }),
            "{}: {stderr}",
            case.display()
        );
        let flat = flatten(&stderr);
        for line in expected.lines() {
            // `file:line:col: severity[code]: message (at pointer)`
            let (place, rest) = line.split_once(": ").unwrap();
            let (kind, message) = rest.split_once("]: ").unwrap();
            let code = kind.split_once('[').unwrap().1;
            let message = message.rsplit_once(" (at ").map_or(message, |(m, _)| m);
            let place = if place.contains(':') {
                place.to_string()
            } else {
                format!("{place}]")
            };
            assert!(
                stderr.contains(&format!("[./{place}")),
                "{}: no `{place}` in\n{stderr}",
                case.display()
            );
            assert!(
                stderr.contains(code),
                "{}: no `{code}` in\n{stderr}",
                case.display()
            );
            // A message naming another file is printed with that file's path as given.
            let message = flatten(message);
            let message = message.replace("`a/", "`./a/");
            assert!(
                flat.contains(&message),
                "{}: no `{message}` in\n{stderr}",
                case.display()
            );
        }
    }
}
