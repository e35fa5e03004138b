# Sourced by scripts/test and scripts/bench: installs the pinned interop clients once, cached
# under $interop (the build folder), and exports where they are. Expects `step` and `interop`.

# Python clients, in a virtualenv keyed by the requirements file so a change reinstalls.
step "python interop clients (tests/interop/requirements.txt)"
req=tests/interop/requirements.txt
stamp=$interop/venv/.requirements
if [ ! -x "$interop/venv/bin/python" ] || ! cmp -s "$req" "$stamp"; then
  rm -rf "$interop/venv"
  python3 -m venv "$interop/venv"
  "$interop/venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
  cp "$req" "$stamp"
fi
export SCHEMCP_PYTHON="$interop/venv/bin/python"

# Node clients and the conformance suite, installed with `npm ci` from the committed lock file
# (exact versions, integrity hashes) into $interop/node, reinstalled when the lock changes.
# The lock's `node` package brings the Node 22 binary the Inspector and the suite need.
step "node interop clients (tests/interop/package-lock.json)"
command -v npm >/dev/null || { echo "npm is required to install the interop clients" >&2; exit 1; }
node_dir=$interop/node
stamp=$node_dir/.package-lock.json
if [ ! -x "$node_dir/node_modules/.bin/node" ] || ! cmp -s tests/interop/package-lock.json "$stamp" \
  || ! cmp -s tests/interop/package.json "$node_dir/package.json"; then
  rm -rf "$node_dir"
  mkdir -p "$node_dir"
  cp tests/interop/package.json tests/interop/package-lock.json "$node_dir/"
  # The suite and the Inspector declare node >= 22 while npm itself may run on an older
  # node: the engine warnings are expected, they run on the pinned Node 22 below.
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp tests/interop/package-lock.json "$stamp"
fi
export SCHEMCP_NODE_MODULES="$node_dir/node_modules"
SCHEMCP_NODE="$(cd "$node_dir/node_modules/node/bin" && pwd)/node"
export SCHEMCP_NODE
"$SCHEMCP_NODE" --version
