//! The deliberately broken contract folders of `schemcp-contract` (`tests/fixtures/broken/*`)
//! through the `build.rs` entry point, `Builder::compile`: each must fail the build with exactly
//! the diagnostics in its `expected.txt`, and write nothing.

use std::path::{Path, PathBuf};

use schemcp_build::{Builder, Error};

#[path = "../../schemcp-contract/tests/fixtures/broken_cases.rs"]
mod broken_cases;

fn cases() -> Vec<PathBuf> {
    broken_cases::broken_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

#[test]
fn build_rs_fails_with_exactly_the_expected_diagnostics() {
    let out = std::env::temp_dir().join(format!("schemcp-broken-build-{}", std::process::id()));
    for case in cases() {
        let expected = std::fs::read_to_string(case.join("expected.txt"))
            .unwrap_or_else(|e| panic!("{}/expected.txt: {e}", case.display()));
        let strip = |text: String| text.replace(&format!("{}/", case.display()), "");
        let builder = Builder::new()
            .schemas_dir(&case)
            .out_dir(out.join("out"))
            .mirror_dir(None::<&str>)
            .check_mirror(false);
        if expected.contains(": error[") {
            match builder.compile() {
                Err(Error::Schemas(diagnostics)) => {
                    assert_eq!(
                        strip(diagnostics.one_line()),
                        expected,
                        "{}",
                        case.display()
                    );
                    // What build.rs prints (Debug) carries every diagnostic too.
                    let printed = format!("{:?}", Error::Schemas(diagnostics));
                    for line in expected.lines() {
                        let code = line
                            .split("error[")
                            .nth(1)
                            .unwrap()
                            .split(']')
                            .next()
                            .unwrap();
                        assert!(printed.contains(code), "{}: {printed}", case.display());
                    }
                }
                Err(other) => panic!("{}: unexpected error {other}", case.display()),
                Ok(()) => panic!("{}: the build succeeded", case.display()),
            }
            assert!(
                !out.join("out/schemcp_tools.rs").exists(),
                "{}: a failed build wrote code",
                case.display()
            );
        } else {
            let generated = builder
                .generate()
                .unwrap_or_else(|e| panic!("{}: {e}", case.display()));
            let warnings: String = generated
                .warnings
                .iter()
                .map(|w| w.one_line() + "\n")
                .collect();
            assert_eq!(strip(warnings), expected, "{}", case.display());
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The same folders through a real `build.rs` run by cargo: a scratch package whose build
/// script is `schemcp_build::compile(<folder>)`, built once per folder. Cargo shows each
/// diagnostic (file, line, column, code, message) and fails the build.
#[test]
fn cargo_build_fails_with_the_diagnostics() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = manifest.join("../..").canonicalize().unwrap();
    // The target dir this test runs from (`<target>/debug/deps/<test>`), shared so nothing is
    // rebuilt; cargo releases its lock before it runs tests.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap().to_path_buf();
    let scratch = target.join("schemcp-broken-build");
    std::fs::create_dir_all(scratch.join("src")).unwrap();
    std::fs::write(
        scratch.join("Cargo.toml"),
        format!(
            "[package]\nname = \"schemcp-broken-build\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [workspace]\n\n[build-dependencies]\nschemcp-build = {{ path = {:?} }}\n",
            manifest.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(scratch.join("src/lib.rs"), "").unwrap();
    std::fs::write(
        scratch.join("build.rs"),
        "fn main() -> Result<(), schemcp_build::Error> {\n    \
         println!(\"cargo:rerun-if-env-changed=SCHEMCP_BROKEN_CASE\");\n    \
         let dir = std::env::var(\"SCHEMCP_BROKEN_CASE\").unwrap();\n    \
         schemcp_build::Builder::new().schemas_dir(dir).mirror_dir(None::<&str>).compile()\n}\n",
    )
    .unwrap();
    if !scratch.join("Cargo.lock").exists() {
        std::fs::copy(repo.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();
    }
    for case in cases() {
        let expected = std::fs::read_to_string(case.join("expected.txt")).unwrap();
        if !expected.contains(": error[") {
            continue;
        }
        let out =
            std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["build", "--quiet"])
                .current_dir(&scratch)
                .env("CARGO_TARGET_DIR", &target)
                .env("SCHEMCP_BROKEN_CASE", &case)
                .env_remove("CARGO_MAKEFLAGS")
                .output()
                .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "{}: the build succeeded",
            case.display()
        );
        assert!(
            stderr.contains("failed to run custom build command"),
            "{stderr}"
        );
        for line in expected.lines() {
            // `file:line:col: error[code]: message (at pointer)`; the renderer wraps long
            // messages, so compare without whitespace.
            let (place, rest) = line.split_once(": ").unwrap();
            let flat = |s: &str| {
                s.replace(['│', '×'], "")
                    .split_whitespace()
                    .collect::<String>()
            };
            let shown = format!("[{}/{place}]", case.display());
            assert!(
                flat(&stderr).contains(&flat(&shown)),
                "{}: no {shown} in\n{stderr}",
                case.display()
            );
            let message = rest.split_once("]: ").unwrap().1;
            let message = message.rsplit_once(" (at ").map_or(message, |(m, _)| m);
            let message = message.replace("`a/", &format!("`{}/a/", case.display()));
            assert!(
                flat(&stderr).contains(&flat(&message)),
                "{}: no `{message}` in\n{stderr}",
                case.display()
            );
        }
    }
}
