#!/usr/bin/env sh
# Source this file (`. scripts/node24.sh`) to put a Node 24 on PATH when the machine's node is
# older than 22.12 (what Astro 7 needs). Node comes from the npm registry (package node-linux-<arch>),
# never from another host, and is kept in .node/ so the next run reuses it.
_need_node24() {
  command -v node >/dev/null 2>&1 || return 0
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?1:0)'
}
if _need_node24; then
  _root=$(cd "$(dirname "${0:-.}")/.." 2>/dev/null && pwd)
  [ -f "$_root/package.json" ] || _root=$(pwd)
  _arch=$(uname -m); case "$_arch" in x86_64) _arch=x64;; aarch64) _arch=arm64;; esac
  _dir="$_root/.node"
  _bin="$_dir/node_modules/node-linux-$_arch/bin"
  if [ ! -x "$_bin/node" ]; then
    echo "node24: installing Node 24 from the npm registry into $_dir" >&2
    mkdir -p "$_dir"
    npm install --prefix "$_dir" --no-save --no-package-lock --ignore-scripts "node-linux-$_arch@24" >&2 || return 1 2>/dev/null || exit 1
  fi
  PATH="$_bin:$PATH"; export PATH
fi
unset -f _need_node24
