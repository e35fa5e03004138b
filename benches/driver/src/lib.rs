//! What the benchmark driver (`schemcp-bench`) and the generator benchmarks
//! (`benches/codegen.rs`) share.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! schemcp_bench::synthetic::write_schemas(dir.path(), 3).unwrap();
//! assert!(dir.path().join("tool_0002.json").exists());
//! ```

pub mod synthetic;
