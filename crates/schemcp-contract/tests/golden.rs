//! Golden files: refresh with `EXPECTORATE=overwrite cargo test -p schemcp-contract`.

use expectorate::assert_contents;
use schemcp_contract::load;

fn rendered(case: &str) -> String {
    load(format!("tests/fixtures/broken/{case}"))
        .unwrap_err()
        .render(false)
}

#[test]
fn rendered_dangling_ref() {
    assert_contents(
        "tests/golden/dangling-ref.txt",
        &rendered("dangling-ref-pointer"),
    );
}

#[test]
fn rendered_ref_cycle() {
    assert_contents("tests/golden/ref-cycle.txt", &rendered("ref-cycle"));
}

#[test]
fn rendered_invalid_json() {
    assert_contents("tests/golden/invalid-json.txt", &rendered("invalid-json"));
}

#[test]
fn rendered_missing_input_schema() {
    assert_contents(
        "tests/golden/missing-input-schema.txt",
        &rendered("missing-input-schema"),
    );
}

#[test]
fn rendered_missing_input_schema_near_miss() {
    assert_contents(
        "tests/golden/missing-input-schema-typo.txt",
        &rendered("missing-input-schema-typo"),
    );
}

#[test]
fn display_is_the_plain_rendering() {
    let err = load("tests/fixtures/broken/ref-cycle").unwrap_err();
    assert_eq!(err.to_string(), err.render(false));
    assert!(!err.to_string().contains('\u{1b}'));
}

#[test]
fn bundled_tool() {
    let set = load("tests/fixtures/good/weather").unwrap();
    for name in ["get_weather", "get_forecast"] {
        let tool = set.tool(name).unwrap();
        let origins: serde_json::Map<String, serde_json::Value> = tool
            .origins
            .iter()
            .map(|(at, o)| (at.clone(), o.to_string().into()))
            .collect();
        let golden = serde_json::json!({ "tool": tool.tool, "origins": origins });
        let text = serde_json::to_string_pretty(&golden).unwrap() + "\n";
        assert_contents(format!("tests/golden/{name}.bundled.json"), &text);
    }
}
