# shellcheck shell=bash
# scripts/lib/apt.sh: sourced by scripts/test and the cross-build scripts; installs the Debian
# packages a script needs, asking apt only for those dpkg does not already have.
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO=sudo

# apt_install_missing PACKAGE...: installs each PACKAGE (name or name:arch) not yet installed.
apt_install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# apt_add_architecture ARCH: makes ARCH a dpkg foreign architecture (multiarch), once.
apt_add_architecture() {
  if ! dpkg --print-foreign-architectures | grep -qx "$1"; then
    echo "== adding the $1 architecture to dpkg (multiarch)"
    $SUDO dpkg --add-architecture "$1"
    $SUDO apt-get update -qq
  fi
}
