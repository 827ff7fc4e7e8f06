#!/usr/bin/env bash
# The Debian package, tested rather than assumed (issue 22), as part of `make test`:
#   1. builds it (scripts/build-deb.sh, from the release build) and an older version of it;
#   2. lintian: no error and no warning; systemd-analyze: the unit verifies and its sandbox rates
#      an exposure of 2.5 or less;
#   3. in a Debian 12 chroot (debootstrap, cached in ~/.cache/photokiosk-e2e): installs the older
#      package, edits the config, upgrades, then removes and purges, checking the unit is enabled,
#      the user and its groups exist, the config edit survives, --version matches the package,
#      the man page and the bash, zsh and fish completions work, GStreamer's registry for video
#      clips is written as the kiosk's user on install (GStreamer comes as a Recommends) and again
#      by the trigger when a plugin package is reinstalled, and purge removes config, state and
#      cache.
# One line per check goes to PACKAGE_RESULTS ("package NAME PASS|FAIL|SKIP [why]", make test's
# summary). The chroot has no running systemd: starting, restarting and sandboxing the service
# are not exercised here. Exit status 0 only when every check passed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/.build/package-test
RESULTS=${PACKAGE_RESULTS:-/dev/null}
failed=0
record() { echo "package $1 $2${3:+ $3}" >>"$RESULTS"; echo "package $1 $2${3:+ $3}"; [ "$2" = PASS ] || [ "$2" = SKIP ] || failed=1; }
# check NAME WHY COMMAND...: one recorded line, PASS when the command succeeds.
check() { local name=$1 why=$2; shift 2
  if "$@" >>"$OUT/checks.log" 2>&1; then record "$name" PASS; else record "$name" FAIL "$why (log: $OUT/checks.log)"; fi; }
# abandon WHY NAME...: the named checks cannot run; each is a failure.
abandon() { local why=$1; shift; for n in "$@"; do record "$n" FAIL "$why"; done; exit 1; }
CHROOT_CHECKS="install-old enabled user dirs token clip-registry upgrade token-kept config-kept version man completion clip-registry-trigger verify remove purge"

"$ROOT/scripts/install-deps.sh" debhelper dpkg-dev lintian debootstrap \
  || abandon "cannot install debhelper, lintian or debootstrap" build lintian security $CHROOT_CHECKS
mkdir -p "$OUT" && : >"$OUT/checks.log"

# 1. The package, and an older version of the same build for the upgrade.
deb=$("$ROOT/scripts/build-deb.sh" --out "$OUT" | tail -n 1) && [ -f "$deb" ] \
  || abandon "scripts/build-deb.sh failed" build lintian security $CHROOT_CHECKS
record build PASS
version=$(dpkg-deb -f "$deb" Version)
old_version="$(sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' "$ROOT/debian/changelog")~test.older"
old_deb=$("$ROOT/scripts/build-deb.sh" --out "$OUT/older" --version "$old_version" \
          --binary "$(swift build -c release --static-swift-stdlib --show-bin-path)/photokiosk" | tail -n 1)
dpkg --compare-versions "$old_version" lt "$version" || abandon "$old_version is not older than $version" $CHROOT_CHECKS

# 2. Static checks.
check lintian "lintian reports errors or warnings" lintian --fail-on error,warning "$deb"
unit=$OUT/photokiosk.service
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./lib/systemd/system/photokiosk.service >"$unit"
check security "systemd-analyze security rates the unit above 2.5" \
  systemd-analyze security --offline=true --threshold=25 "$unit"

# 3. Install, upgrade, remove, purge in a chroot.
. "$ROOT/scripts/lib/debian-chroot.sh"
root=$OUT/chroot
trap 'chroot_release "$root"' EXIT
chroot_create "$root" >>"$OUT/checks.log" 2>&1 || abandon "no Debian chroot ($OUT/checks.log)" $CHROOT_CHECKS
cp "$deb" "$root/tmp/new.deb"; cp "$old_deb" "$root/tmp/old.deb"
in_root() { chroot_run "$root" "$@"; }
apt_install() { chroot_apt_install "$root" "$@"; }

# The shells whose completions the package installs (bash is in the base).
apt_install zsh fish >>"$OUT/checks.log" 2>&1
check install-old "apt-get install of $old_version failed" apt_install /tmp/old.deb
check enabled "photokiosk.service is not enabled" \
  sh -c "[ \"\$(chroot '$root' systemctl is-enabled photokiosk.service)\" = enabled ]"
check user "no photokiosk user in the video, render and input groups" \
  in_root sh -c 'id photokiosk && for g in video render input; do id -nG photokiosk | grep -qw $g || exit 1; done'
check dirs "the cache and state folders are missing or not the kiosk's" \
  in_root sh -c 'for d in /var/cache/photokiosk /var/lib/photokiosk; do [ "$(stat -c %U "$d")" = photokiosk ] || exit 1; done'
check token "the first install wrote no remote token, or left the config readable by others" \
  sh -c "grep -E '^token = \"[A-Za-z0-9_-]{24}\"' '$root/etc/photokiosk/config.toml' >/dev/null \
         && [ \"\$(chroot '$root' stat -c '%a %U %G' /etc/photokiosk/config.toml)\" = '640 root photokiosk' ]"
# GStreamer's registry (photokiosk prepare-clips in the postinst, debian/photokiosk.triggers):
# written where the unit's GST_REGISTRY_1_0 points, by the kiosk's user. GStreamer is a Recommends,
# so apt brought it; without it (no such package here) these checks are skipped, and say so.
registry=/var/cache/photokiosk/gstreamer-registry.bin
registry_is_the_kiosks() { in_root sh -c "ls -l $registry && [ -s $registry ] && [ \"\$(stat -c %U $registry)\" = photokiosk ]"; }
gstreamer_here() { in_root sh -c 'ls /usr/lib/*/libgstreamer-1.0.so.0' >/dev/null 2>&1; }
if gstreamer_here; then
  check clip-registry "no GStreamer registry of the photokiosk user's at $registry after the install" registry_is_the_kiosks
else
  record clip-registry SKIP "GStreamer was not installed in the chroot (a Recommends): no registry to check"
fi
token_line=$(grep '^token = ' "$root/etc/photokiosk/config.toml" || true)
echo '# edited by package-test' >>"$root/etc/photokiosk/config.toml"
touch "$root/var/lib/photokiosk/kept-by-upgrade"

check upgrade "apt-get install of $version over $old_version failed" apt_install /tmp/new.deb
check config-kept "the config edit or the state did not survive the upgrade" \
  sh -c "grep -q 'edited by package-test' '$root/etc/photokiosk/config.toml' && [ -e '$root/var/lib/photokiosk/kept-by-upgrade' ] \
         && chroot '$root' dpkg-query -W -f='\${Conffiles}' photokiosk | grep -q /etc/photokiosk/config.toml \
         && [ \"\$(chroot '$root' systemctl is-enabled photokiosk.service)\" = enabled ]"
check token-kept "the upgrade changed the remote token" \
  sh -c "[ -n '$token_line' ] && grep -qxF '$token_line' '$root/etc/photokiosk/config.toml'"
check version "photokiosk --version, the package and its changelog disagree" \
  sh -c "v=\$(chroot '$root' photokiosk --version) && echo \"--version \$v, package $version\" && [ \"\$v\" = '$version' ] \
         && zcat '$root/usr/share/doc/photokiosk/changelog.gz' | head -n 1 | grep -qF '($version)'"
check man "man photokiosk does not show the subcommands" \
  in_root sh -c 'man -P cat photokiosk 2>/dev/null | grep -q "snapshot" && man -P cat photokiosk | grep -q -- "--photos"'
check completion "bash, zsh or fish does not complete photokiosk's subcommands" \
  in_root bash -c 'source /usr/share/bash-completion/bash_completion && source /usr/share/bash-completion/completions/photokiosk \
    && COMP_WORDS=(photokiosk sn) COMP_CWORD=1 COMP_LINE="photokiosk sn" COMP_POINT=13 && _photokiosk photokiosk sn photokiosk \
    && echo "bash: ${COMPREPLY[*]}" && [[ " ${COMPREPLY[*]} " == *" snapshot "* ]] \
    && zsh -c "autoload -U compinit && compinit -u && [[ \$_comps[photokiosk] == _photokiosk ]]" && echo "zsh: _photokiosk" \
    && fish_says=$(fish -c "complete -C\"photokiosk sn\"") && echo "fish: $fish_says" && [[ $fish_says == snapshot* ]]'
# A plugin package installed again (as an upgrade would) fires the trigger: the registry is back.
trigger_rewrites_registry() { rm -f "$root$registry"
  in_root apt-get install -y -q --reinstall gstreamer1.0-plugins-base && registry_is_the_kiosks; }
if gstreamer_here; then
  check clip-registry-trigger "reinstalling gstreamer1.0-plugins-base did not write the registry again (the trigger)" \
    trigger_rewrites_registry
else
  record clip-registry-trigger SKIP "GStreamer was not installed in the chroot: no plugin package to fire the trigger"
fi
check verify "systemd-analyze verify reports the unit" \
  sh -c "out=\$(chroot '$root' systemd-analyze verify /lib/systemd/system/photokiosk.service 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"

check remove "apt-get remove failed, or it took the config or the state" \
  sh -c "chroot '$root' apt-get remove -y -q photokiosk && [ ! -e '$root/usr/bin/photokiosk' ] \
         && [ -e '$root/etc/photokiosk/config.toml' ] && [ -d '$root/var/lib/photokiosk' ]"
check purge "purge left config, state, cache or the unit's enable link" \
  sh -c "chroot '$root' dpkg --purge photokiosk && for p in /etc/photokiosk /var/lib/photokiosk /var/cache/photokiosk \
         /etc/systemd/system/multi-user.target.wants/photokiosk.service; do [ ! -e '$root'\$p ] && [ ! -L '$root'\$p ] || { echo \"left \$p\"; exit 1; }; done"
exit $failed
