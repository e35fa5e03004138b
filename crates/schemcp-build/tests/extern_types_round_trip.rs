//! The code generated for `tests/fixtures/extern_types` (golden `tests/golden/extern_types`,
//! written by `tests/examples.rs`) compiles against chrono and uuid as a user's package depends
//! on them: where `x-rust-type` names a registered crate's type, the generated types hold that
//! type, the trait's implementation returns it, and the generated examples check passes.

// Generated code must not warn in a crate that denies warnings.
#![deny(warnings)]

// The server glue is not used here; the trait, the types and the examples check are.
#[allow(dead_code)]
mod tools {
    include!("golden/extern_types/schemcp_tools.rs");
}

use schemcp_runtime::__private::decode_arguments;
use schemcp_runtime::{ToolContext, ToolError};
use serde_json::json;
use tools::{BookRoomInput, BookRoomOutput};

struct Rooms;

impl tools::Tools for Rooms {
    async fn book_room(
        &self,
        input: BookRoomInput,
        _cx: &ToolContext,
    ) -> Result<BookRoomOutput, ToolError> {
        // The implementation works with chrono's and uuid's own types, not strings.
        let day: chrono::NaiveDate = input.day;
        let booked_at = day.and_hms_opt(9, 30, 0).unwrap().and_utc();
        Ok(BookRoomOutput {
            booking: uuid::Uuid::nil(),
            booked_at,
            floor: None,
        })
    }
}

#[test]
fn named_types_are_the_crates_own() {
    let input: BookRoomInput =
        decode_arguments(json!({ "room": "Ada", "day": "2026-12-07", "until": "17:00" })).unwrap();
    assert_eq!(
        input.day,
        chrono::NaiveDate::from_ymd_opt(2026, 12, 7).unwrap()
    );
    // The extension whose version requirement the registered chrono does not meet: a String.
    let until: Option<String> = input.until.clone();
    assert_eq!(until.as_deref(), Some("17:00"));
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        json!({ "room": "Ada", "day": "2026-12-07", "until": "17:00" })
    );
    // A named type that may be `null` is an `Option` of it; an explicit `null` stays one.
    assert_eq!(input.key_back, None);
    let kept: BookRoomInput =
        decode_arguments(json!({ "room": "Ada", "day": "2026-12-07", "key_back": null })).unwrap();
    assert_eq!(kept.key_back, Some(None));
    let back: BookRoomInput =
        decode_arguments(json!({ "room": "Ada", "day": "2026-12-07", "key_back": "2026-12-08" }))
            .unwrap();
    let day_after = chrono::NaiveDate::from_ymd_opt(2026, 12, 8).unwrap();
    assert_eq!(back.key_back, Some(Some(day_after)));
    assert_eq!(
        serde_json::to_value(&kept).unwrap(),
        json!({ "room": "Ada", "day": "2026-12-07", "key_back": null })
    );
    // chrono's type refuses what is no date (the schema's `format` alone would not).
    assert!(
        decode_arguments::<BookRoomInput>(json!({ "room": "Ada", "day": "2026-13-01" })).is_err()
    );

    let output = BookRoomOutput {
        booking: "67e55044-10b1-426f-9247-bb680e5fe0c8".parse().unwrap(),
        booked_at: "2026-12-07T09:30:00Z".parse().unwrap(),
        floor: Some(3),
    };
    assert_eq!(
        serde_json::to_value(&output).unwrap(),
        json!({
            "booking": "67e55044-10b1-426f-9247-bb680e5fe0c8",
            "booked_at": "2026-12-07T09:30:00Z",
            "floor": 3
        })
    );
}

#[test]
fn the_generated_examples_check_passes() {
    tools::schemcp_examples::check_examples();
}

// `Rooms` implements the generated trait: this file only builds if the method returns the
// output type with chrono's and uuid's types in it.
const _: fn() = || {
    fn implements<T: tools::Tools>(_: &T) {}
    implements(&Rooms);
};
