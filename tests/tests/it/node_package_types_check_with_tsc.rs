//! The package's TypeScript declarations (`dist/pkg/index.d.ts` and the glue's `.d.ts` it
//! re-exports), checked by `tsc --noEmit --strict` from the npm registry against
//! `tests/node/types.ts`, which uses every export as the types say and marks wrong uses
//! `@ts-expect-error` (so tsc also fails if the types stop refusing them): every export, the
//! `LabError` class, the `<idempotency-lab>` element by its tag with its typed events, on lib
//! es2022 (with the DOM's types) and `skipLibCheck: false`.

use std::path::Path;
use std::process::Command;

use idempotency_lab_tests::node::{fresh_dir, package_dir};

/// The TypeScript compiler, pinned.
const TYPESCRIPT: &str = "typescript@5.9.3";

#[test]
fn node_package_types_check_with_tsc() {
    let typescript = idempotency_lab_tests::npm::package(TYPESCRIPT, "typescript", "bin/tsc");
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let uses = Path::new(env!("CARGO_MANIFEST_DIR")).join("node/types.ts");
    let dir = fresh_dir("tsc");
    let config = serde_json::json!({
        "compilerOptions": {
            "strict": true,
            "noEmit": true,
            "target": "es2022",
            "module": "esnext",
            "moduleResolution": "bundler",
            "lib": ["es2022", "dom"],
            "types": [],
            "skipLibCheck": false,
            "paths": { "idempotency-lab": [package_dir().join("index.d.ts")] },
        },
        "files": [uses],
    });
    let config_path = dir.join("tsconfig.json");
    std::fs::write(&config_path, config.to_string()).expect("write tsconfig.json");
    let output = Command::new(&node)
        .arg(typescript.join("bin/tsc"))
        .args(["--noEmit", "--strict", "--pretty", "false", "--project"])
        .arg(&config_path)
        .output()
        .expect("run tsc");
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        output.status.success(),
        "tsc --noEmit --strict refused tests/node/types.ts ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
