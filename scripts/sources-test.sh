#!/usr/bin/env bash
# Issue 34, items 1, 2, 4, 5 and 7: photokiosk-sync (rclone) against REAL servers started here on
# loopback: Apache with mod_dav (WebDAV, as Nextcloud speaks it), sshd (SFTP, OpenSSH's
# sftp-server) and smbd (SMB), each with its own config in a temporary folder and a high port.
# For each server:
#   first sync; a photo added, one deleted, one renamed on the server -> the folder follows after
#   one sync, and the kiosk (`photokiosk doctor`, which lists the source folder through the
#   library's own scan) counts the same photos; a transfer cut half way, by the server killed
#   and by the link pulled (a veth pair into a network namespace, set down: no answer at all)
#   during a big file -> no half file left, finished by the next sync; a refused login, and a server
#   that fails while reachable (WebDAV: 503; SFTP: its sftp service exits; SMB: the share's
#   folder gone, as a NAS disk not mounted) -> a clear status, nothing deleted, clear again once
#   mended; an empty listing by mistake -> nothing deleted; a quota that holds three of eight
#   photos -> the newest three by date taken, the others never downloaded again; no secret of
#   rclone.conf (the password, as typed and as rclone stores it) in any output.
# Bounded: about 40 s per server on loopback. Usage: scripts/sources-test.sh [dav] [sftp] [smb]
# Installs what it needs (rclone apache2 apache2-utils openssh-server samba time) through scripts/install-deps.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# The servers and rclone, installed here rather than by `make deps`: Debian starts apache2, sshd
# and smbd as system services when they are installed, which a developer may not want.
scripts/install-deps.sh rclone apache2 apache2-utils openssh-server openssh-client samba time >/dev/null \
    || { echo "sources-test: cannot install the servers" >&2; exit 1; }
PHOTOKIOSK=${PHOTOKIOSK:-$repo/.build/debug/photokiosk}
[ -x "$PHOTOKIOSK" ] || { echo "sources-test: build first (swift build): $PHOTOKIOSK is missing" >&2; exit 1; }
servers=("$@"); [ ${#servers[@]} -gt 0 ] || servers=(dav sftp smb)

T=$(mktemp -d /tmp/photokiosk-sources.XXXXXX)
chmod 755 "$T"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null; done
    [ -f "$T/apache.pid" ] && kill "$(cat "$T/apache.pid")" 2>/dev/null
    ip link del "$LINK_IF" 2>/dev/null; ip netns del "$LINK_NS" 2>/dev/null
    sleep 0.2
    rm -rf "$T"
}
trap cleanup EXIT

# A link the test can pull: a network namespace whose only way to the servers is a veth pair
# (the servers listen on its host end too). `ip link set ... down` is a cable pulled mid-transfer:
# packets vanish, nothing answers, unlike a killed server's refused connections. Needs root.
LINK_NS=pk-sources-$$ LINK_IF=pkl$$ LINK_HOST=10.213.77.1 LINK_PEER=10.213.77.2 link_skip=""
if [ "$(id -u)" -ne 0 ]; then
    link_skip="needs root for a network namespace"
elif ! { ip netns add "$LINK_NS" && ip link add "$LINK_IF" type veth peer name "pkp$$" \
        && ip link set "pkp$$" netns "$LINK_NS" && ip addr add "$LINK_HOST/30" dev "$LINK_IF" && ip link set "$LINK_IF" up \
        && ip netns exec "$LINK_NS" ip addr add "$LINK_PEER/30" dev "pkp$$" \
        && ip netns exec "$LINK_NS" ip link set "pkp$$" up && ip netns exec "$LINK_NS" ip link set lo up; } 2>"$T/link.err"; then
    link_skip="cannot make a network namespace: $(head -c 200 "$T/link.err")"
fi
link_down() { ip link set "$LINK_IF" down; }
link_up() { ip link set "$LINK_IF" up; ip netns exec "$LINK_NS" ip link set "pkp$$" up; sleep 0.5; }

failures=0
started=$SECONDS
pass() { echo "  ok ($((SECONDS - started)) s): $*"; }
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The password as a person types it, and as rclone.conf holds it (rclone obscure).
PASSWORD="Frame-Secret-$RANDOM-pw"
OBSCURED=$(rclone obscure "$PASSWORD")
export RCLONE_CONFIG=$T/rclone.conf
: >"$RCLONE_CONFIG"; chmod 600 "$RCLONE_CONFIG"
export XDG_STATE_HOME=$T/state
export PHOTOKIOSK
# rclone as photokiosk-sync calls it, but logging at INFO (each file it copies or deletes) into
# copied.log as well: the quota's check reads what the client really transferred.
cat >"$T/rclone-logged" <<EOF
#!/bin/bash
err=\$(mktemp)
rclone "\${@/#NOTICE/INFO}" 2>"\$err"; status=\$?
cat "\$err" >&2; cat "\$err" >>"$T/copied.log"; rm -f "\$err"
exit \$status
EOF
chmod +x "$T/rclone-logged"
OUT=$T/all-output.txt   # everything the sync and doctor said, searched for the password at the end
sync_now() { ${RUN_SYNC:-} "$repo/deploy/photokiosk-sync" --config "$T/config.toml" --now "$@" >>"$OUT.last" 2>&1; local s=$?
    cat "$OUT.last" >>"$OUT"; cat "$OUT.last" | sed 's/^/    sync: /'; : >"$OUT.last"; return $s; }
status_of() { sed -nE "s/^$2 = \"?([^\"]*)\"?\$/\1/p" "$XDG_STATE_HOME/photokiosk/source-status/$1.toml"; }
listing() { (cd "$1" && find . -type f -not -name '.*' | sort | xargs -r md5sum); }
# One remote of rclone.conf: remote_section NAME TYPE KEY=VALUE...
remote_section() {
    printf '[%s]\ntype = %s\n' "$1" "$2"
    local pair
    for pair in "${@:3}"; do printf '%s = %s\n' "${pair%%=*}" "${pair#*=}"; done
    echo
}
write_config() {  # name remote
    printf '[library]\nfolders = ["%s/none"]\n\n[[source]]\nname = "%s"\nremote = "%s"\ninterval = 5\n' "$T" "$1" "$2" >"$T/config.toml"
}

# Photos: the bundled samples under several names (real JPEGs, so the kiosk's scan counts them).
samples=("$repo"/assets/photos/*.jpg)
seed_server() {  # dir
    mkdir -p "$1/2024/summer" "$1/2025"
    cp "${samples[0]}" "$1/2024/summer/beach.jpg"
    cp "${samples[1]}" "$1/2024/summer/dune.jpg"
    cp "${samples[2]}" "$1/2025/garden.jpg"
    cp "${samples[3]}" "$1/2025/cat.jpg"
    cp "${samples[4]}" "$1/top.jpg"
    echo "not a photo" >"$1/notes.txt"
}

# The scenario every server type goes through. $1 name, $2 good remote, $3 bad-login remote,
# $4 server folder, $5 function that kills the server, $6 function that starts it again, $7 the
# good remote through the link (empty: no link here).
scenario() {
    local name=$1 remote=$2 bad=$3 dir=$4 kill_server=$5 start_server=$6 link_remote=${7:-}
    local folder=$XDG_STATE_HOME/photokiosk/sources/$name
    echo "== $name: first sync"
    write_config "$name" "$remote"
    local t0=$SECONDS
    sync_now || fail "$name: first sync failed"
    [ "$(listing "$folder")" = "$(listing "$dir" | grep -v notes.txt)" ] && pass "the folder holds the server's 5 photos (not its .txt)" || fail "$name: first sync: folder differs from server"
    [ "$(status_of "$name" photos)" = 5 ] && [ -z "$(status_of "$name" error)" ] && pass "status: 5 photos, no error" || fail "$name: status after first sync: $(cat "$XDG_STATE_HOME/photokiosk/source-status/$name.toml")"
    local doctor
    doctor=$("$PHOTOKIOSK" doctor --config "$T/config.toml" 2>&1); echo "$doctor" >>"$OUT"
    echo "$doctor" | grep -F "  $folder: " | sed 's/^/    doctor: /'
    echo "$doctor" | grep -qE "^  $folder: .*5 photos" && pass "the kiosk's scan counts 5 photos in the source folder" || fail "$name: doctor does not count 5 photos in $folder"
    echo "$doctor" | grep -E "^  $name \(" | sed 's/^/    doctor: /'
    echo "$doctor" | grep -qE "^  $name \(.*last sync .*, 5 photos" && pass "doctor shows the source's status" || fail "$name: doctor does not show the source's status"

    echo "== $name: add, delete, rename on the server"
    cp "${samples[5]}" "$dir/2025/new.jpg"
    rm "$dir/2024/summer/dune.jpg"
    mv "$dir/2025/cat.jpg" "$dir/2025/cat-renamed.jpg"
    sync_now || fail "$name: second sync failed"
    [ "$(listing "$folder")" = "$(listing "$dir" | grep -v notes.txt)" ] && pass "added, deleted and renamed photos followed in one sync" || fail "$name: folder does not follow the server"
    [ "$(status_of "$name" photos)" = 5 ] || fail "$name: status count after changes: $(status_of "$name" photos)"

    echo "== $name: login refused"
    local before; before=$(listing "$folder")
    write_config "$name" "$bad"
    sync_now && fail "$name: a refused login reported success"
    [ "$(listing "$folder")" = "$before" ] && pass "nothing deleted" || fail "$name: photos changed after a refused login"
    local error; error=$(status_of "$name" error)
    [ -n "$error" ] && [ "$(status_of "$name" failures)" = 1 ] && pass "status says: $error" || fail "$name: no error in status after a refused login"
    write_config "$name" "$remote"

    echo "== $name: empty listing by mistake"
    mkdir -p "$T/aside-$name" && mv "$dir"/* "$T/aside-$name/"
    sync_now && fail "$name: an empty listing reported success"
    [ "$(listing "$folder")" = "$before" ] && pass "nothing deleted" || fail "$name: photos deleted after an empty listing"
    error=$(status_of "$name" error)
    [[ $error == *"listed no photo"* ]] && pass "status says: $error" || fail "$name: status after an empty listing: $error"
    mv "$T/aside-$name"/* "$dir/"

    cut_transfer "$name" "$dir" "server killed" "$before" "$kill_server" "$start_server"
    if [ -n "$link_remote" ]; then
        # The same server through the link the test can pull: the sync runs in the namespace
        # whose only way out is that link. rclone gives up on a dead connection after its
        # timeouts, shortened here from a minute and five.
        write_config "$name" "$link_remote"
        RUN_SYNC="ip netns exec $LINK_NS" sync_now || fail "$name: the sync through the link failed before the cut"
        RUN_SYNC="ip netns exec $LINK_NS env RCLONE_TIMEOUT=2s RCLONE_CONTIMEOUT=2s" \
            cut_transfer "$name" "$dir" "link down" "$before" link_down link_up
        write_config "$name" "$remote"
    else
        echo "  (link down: SKIPPED, $link_skip)"
    fi
    echo "  ($name: $((SECONDS - t0)) s)"
}

# A 48 MB photo on the server, its download cut half way by $3 ($5 cuts, $6 mends): the sync
# fails and says why, no half file is left, nothing else changes ($4: the folder's listing
# before), and the next sync finishes it. $RUN_SYNC: a prefix for the cut sync's command.
cut_transfer() {
    local name=$1 dir=$2 how=$3 before=$4 cut=$5 mend=$6
    local folder=$XDG_STATE_HOME/photokiosk/sources/$name
    echo "== $name: transfer cut half way ($how)"
    head -c $((48 << 20)) /dev/urandom >"$T/big.jpg"
    cp "$T/big.jpg" "$dir/big.jpg"
    ${RUN_SYNC:-} env RCLONE_BWLIMIT=8M "$repo/deploy/photokiosk-sync" --config "$T/config.toml" --now >"$OUT.cut" 2>&1 &
    local sync_pid=$! waited=0
    while [ ! -s "$folder/big.jpg" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    sleep 1
    $cut
    local t_cut=$SECONDS
    wait $sync_pid && fail "$name: a transfer cut ($how) reported success"
    echo "  (the sync gave up $((SECONDS - t_cut)) s after the cut)"
    cat "$OUT.cut" >>"$OUT"; sed 's/^/    sync: /' "$OUT.cut"
    if [ -e "$folder/big.jpg" ] && ! cmp -s "$folder/big.jpg" "$T/big.jpg"; then
        fail "$name: a half file is left: $(stat -c %s "$folder/big.jpg") of $((48 << 20)) bytes"
    else pass "no half file left"; fi
    [ "$(listing "$folder" | grep -v big.jpg)" = "$before" ] && pass "nothing deleted" || fail "$name: photos changed after a cut transfer"
    local error; error=$(status_of "$name" error)
    [[ $error == *"cannot be reached"* ]] && pass "status says: $error" || fail "$name: status after a cut transfer ($how): '$error'"
    $mend
    ${RUN_SYNC:-} "$repo/deploy/photokiosk-sync" --config "$T/config.toml" --now >"$OUT.last" 2>&1 || fail "$name: the sync after the cut failed"
    cat "$OUT.last" >>"$OUT"; sed 's/^/    sync: /' "$OUT.last"; : >"$OUT.last"
    cmp -s "$folder/big.jpg" "$T/big.jpg" && pass "the next sync finished the big file" || fail "$name: big file not complete after the next sync"
    [ -z "$(status_of "$name" error)" ] && [ "$(status_of "$name" failures)" = 0 ] && pass "status clear again" || fail "$name: error stays after a good sync"
    rm "$dir/big.jpg"
    ${RUN_SYNC:-} "$repo/deploy/photokiosk-sync" --config "$T/config.toml" --now >/dev/null 2>&1
}

# A copy of a JPEG with an EXIF DateTimeOriginal (an APP1 segment after SOI), so the quota's
# "newest by date taken" is tested on the date in the photo, not the file time.
with_date_taken() {  # source target "YYYY:MM:DD HH:MM:SS"
    python3 - "$@" <<'PY'
import struct, sys
src, dst, date = sys.argv[1], sys.argv[2], sys.argv[3].encode() + b"\0"
tiff = b"II*\0" + struct.pack("<I", 8)
tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x8769, 4, 1, 26) + struct.pack("<I", 0)   # IFD0 -> Exif IFD
tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x9003, 2, len(date), 44) + struct.pack("<I", 0)  # DateTimeOriginal
tiff += date
app1 = b"Exif\0\0" + tiff
data = open(src, "rb").read()
assert data[:2] == b"\xff\xd8"
open(dst, "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + data[2:])
PY
}

# Quota: eight photos of known size and date taken (the file times say the opposite order); a
# quota that holds three keeps the three newest by date taken, deletes the others here,
# leaves them out of the next sync, and takes one back when a newer one is deleted on the server.
quota() {
    local dir=$1 remote=$2 name=quota-${2%%:*}
    local folder=$XDG_STATE_HOME/photokiosk/sources/$name
    echo "== quota: newest by date taken kept ($remote)"
    mkdir -p "$dir/quota"
    local i
    for i in 1 2 3 4 5 6 7 8; do
        head -c $((200 << 10)) /dev/urandom >"$T/pad"
        with_date_taken "${samples[6]}" "$T/q.jpg" "2020:0$i:01 12:00:00"
        cat "$T/q.jpg" "$T/pad" >"$dir/quota/taken-2020-0$i.jpg"   # bytes after EOI: still a valid JPEG
        touch -d "2024-01-$((10 + 9 - i)) 12:00" "$dir/quota/taken-2020-0$i.jpg"   # older file time for newer photos
    done
    chmod -R a+rX "$dir/quota"
    # Each photo is about 280 KB: a 1 MB quota holds three.
    printf '[library]\nfolders = ["%s/none"]\n\n[[source]]\nname = "%s"\nremote = "%s"\ninterval = 5\nquota_mb = 1\n' \
        "$T" "$name" "$remote/quota" >"$T/config.toml"
    local kb; kb=$(du -k "$dir/quota/taken-2020-01.jpg" | cut -f1)
    local fit=$(( 1024 / kb ))
    : >"$T/copied.log"
    RCLONE=$T/rclone-logged sync_now || fail "quota: sync failed"
    local kept; kept=$(cd "$folder" && ls | sort | tr '\n' ' ')
    local expected; expected=$(for i in $(seq $((9 - fit)) 8); do echo "taken-2020-0$i.jpg"; done | tr '\n' ' ')
    [ "$kept" = "$expected" ] && pass "kept the $fit newest by date taken: $kept" || fail "quota: kept '$kept', expected '$expected'"
    local note; note=$(status_of "$name" quota)
    [[ $note == *"left out"* ]] && pass "status says: $note" || fail "quota: status has no note: $note"
    [ "$(du -sk "$folder" | cut -f1)" -le 1040 ] && pass "the folder is within the quota ($(du -sk "$folder" | cut -f1) KB)" || fail "quota: folder $(du -sk "$folder" | cut -f1) KB"
    # The next sync must not download the left-out photos again. rclone's own record of what it
    # copied tells (the servers run as root here, so making the files unreadable would prove nothing).
    [ "$(grep -c "Copied (new)" "$T/copied.log")" -ge "$fit" ] || fail "quota: rclone's log shows no copy of the first sync: the check below could not see one"
    : >"$T/copied.log"
    RCLONE=$T/rclone-logged sync_now && [ "$(cd "$folder" && ls | sort | tr '\n' ' ')" = "$expected" ] \
        || fail "quota: the second sync failed or changed the folder"
    grep -q "Copied\|Deleted" "$T/copied.log" && fail "quota: the second sync transferred: $(grep "Copied\|Deleted" "$T/copied.log" | head -3)" \
        || pass "the next sync leaves them out (rclone copied nothing: $(grep -c 'INFO' "$T/copied.log") INFO lines, none a copy)"
    rm "$dir/quota/taken-2020-08.jpg"
    sync_now && sync_now || fail "quota: syncs after a deletion failed"
    expected=$(for i in $(seq $((8 - fit)) 7); do echo "taken-2020-0$i.jpg"; done | tr '\n' ' ')
    kept=$(cd "$folder" && ls | sort | tr '\n' ' ')
    [ "$kept" = "$expected" ] && pass "a newer photo deleted on the server: an older one came back: $kept" || fail "quota: after a deletion kept '$kept', expected '$expected'"
}

# A server that fails while it is reachable and the login is right: the status must say so in
# words (the server failed, or the folder is not there), and nothing here may be deleted.
# $1 name, $2 remote, $3 the function that makes the server fail, $4 the one that mends it,
# $5 a pattern the status's error must match.
server_error() {
    local name=$1 remote=$2 break_server=$3 mend_server=$4 expect=$5
    local folder=$XDG_STATE_HOME/photokiosk/sources/$name
    echo "== $name: server error"
    write_config "$name" "$remote"
    sync_now >/dev/null || fail "$name: the sync before the server error failed"
    local before; before=$(listing "$folder")
    [ -n "$before" ] || fail "$name: no photos here before the server error: the check below would prove nothing"
    $break_server
    sync_now && fail "$name: a failing server reported success"
    [ "$(listing "$folder")" = "$before" ] && pass "nothing deleted" || fail "$name: photos changed after a server error"
    local error; error=$(status_of "$name" error)
    [[ $error == $expect ]] && pass "status says: $error" || fail "$name: status after a server error: '$error' (expected $expect)"
    $mend_server
    sync_now && [ -z "$(status_of "$name" error)" ] && pass "status clear again once the server works" || fail "$name: error stays after the server was mended"
}

# --- WebDAV: Apache with mod_dav and basic auth, in its own config -----------------------------
dav() {
    local port www=$T/dav-www mods=/usr/lib/apache2/modules
    port=$(free_port)
    mkdir -p "$www" "$T/dav-lock"
    seed_server "$www"
    htpasswd -bc "$T/htpasswd" frame "$PASSWORD" 2>/dev/null
    local user_lines=""
    # Apache will not run as root: as root it serves as nobody (the temp tree is world-readable).
    if [ "$(id -u)" -eq 0 ]; then user_lines=$'User nobody\nGroup nogroup'; chown nobody "$T/dav-lock"; chmod -R a+rX "$www"; fi
    cat >"$T/apache.conf" <<EOF
ServerRoot $T
ServerName 127.0.0.1
Listen 127.0.0.1:$port
$([ -z "$link_skip" ] && echo "Listen $LINK_HOST:$port")
PidFile $T/apache.pid
DefaultRuntimeDir $T
Mutex file:$T default
ErrorLog $T/apache-error.log
LogLevel warn
$user_lines
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule authn_core_module $mods/mod_authn_core.so
LoadModule authn_file_module $mods/mod_authn_file.so
LoadModule auth_basic_module $mods/mod_auth_basic.so
LoadModule authz_user_module $mods/mod_authz_user.so
LoadModule dav_module $mods/mod_dav.so
LoadModule dav_fs_module $mods/mod_dav_fs.so
LoadModule rewrite_module $mods/mod_rewrite.so
DocumentRoot $www
DAVLockDB $T/dav-lock/lockdb
<Directory $www>
    DAV On
    AuthType Basic
    AuthName "photos"
    AuthUserFile $T/htpasswd
    Require valid-user
    # The 5xx test: while this file exists every request fails with 503.
    RewriteEngine On
    RewriteCond $T/fail-503 -f
    RewriteRule ^ - [R=503,L]
</Directory>
EOF
    local dav_login=(vendor=other user=frame)
    { remote_section dav webdav "url=http://127.0.0.1:$port/" "${dav_login[@]}" "pass=$OBSCURED"
      remote_section davlink webdav "url=http://$LINK_HOST:$port/" "${dav_login[@]}" "pass=$OBSCURED"
      remote_section davbad webdav "url=http://127.0.0.1:$port/" "${dav_login[@]}" "pass=$(rclone obscure wrong-password)"
    } >>"$RCLONE_CONFIG"
    dav_start() {
        rm -f "$T/apache.pid"
        /usr/sbin/apache2 -f "$T/apache.conf" -k start || { fail "apache2 did not start: $(tail -3 "$T/apache-error.log")"; return 1; }
        local i; for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0; sleep 0.1; done
    }
    # Killed, not stopped: the transfer is cut, as by a crash or a pulled cable.
    dav_kill() { pkill -9 -P "$(cat "$T/apache.pid")"; kill -9 "$(cat "$T/apache.pid")"; rm -f "$T/apache.pid"; sleep 0.3; }
    dav_start || return
    echo "== WebDAV (Apache mod_dav on 127.0.0.1:$port)"
    scenario dav dav:/ davbad:/ "$www" dav_kill dav_start "$([ -z "$link_skip" ] && echo davlink:/)"

    echo "== dav: peak memory of the sync on 300 photos (BENCHMARKS.md)"
    mkdir -p "$www/many"
    local i; for i in $(seq 300); do ln "${samples[$((i % ${#samples[@]}))]}" "$www/many/photo-$i.jpg"; done
    # The real rclone, under /usr/bin/time: each run's peak resident memory (KB), listing and sync.
    printf '#!/bin/sh\nexec /usr/bin/time -a -o "%s" -f "%%M %%e" rclone "$@"\n' "$T/rss" >"$T/rclone-measured"
    chmod +x "$T/rclone-measured"
    local t1=$SECONDS
    RCLONE=$T/rclone-measured sync_now || fail "dav: the 300-photo sync failed"
    local count; count=$(status_of dav photos)
    [ "$count" = 305 ] && pass "300 more photos synced in $((SECONDS - t1)) s" || fail "dav: 300-photo sync counts $count"
    echo "  peak memory: rclone lsf $(sed -n 1p "$T/rss" | cut -d' ' -f1) KB, rclone sync $(sed -n 2p "$T/rss" | cut -d' ' -f1) KB ($(du -sm --count-links "$www/many" | cut -f1) MB, $(sed -n 2p "$T/rss" | cut -d' ' -f2) s)"

    quota "$www" dav:

    echo "== a source list saved on the phone page (settings.toml) stands in for config.toml's"
    write_config dav dav:/
    printf '# Written by the remote page.\nsource = [{name = "phone-added", remote = "dav:/2025", interval = 5, quota_mb = 0}]\n' \
        >"$XDG_STATE_HOME/photokiosk/settings.toml"
    local listed; listed=$("$PHOTOKIOSK" sources --config "$T/config.toml" | cut -f1-2 | tr '\t\n' '  ')
    [ "$listed" = "phone-added dav:/2025 " ] && pass "photokiosk sources lists the page's: $listed" || fail "sources listed: '$listed'"
    sync_now || fail "the page's source did not sync"
    [ "$(listing "$XDG_STATE_HOME/photokiosk/sources/phone-added")" = "$(listing "$www/2025")" ] \
        && pass "the page's source synced: $(status_of phone-added photos) photos" || fail "the page's source's folder differs from the server's"
    rm "$XDG_STATE_HOME/photokiosk/settings.toml"

    # Every request answered 503 while the flag file exists (the RewriteRule above).
    dav_break() { touch "$T/fail-503"; }
    dav_mend() { rm -f "$T/fail-503"; }
    server_error dav dav:/ dav_break dav_mend "*the server failed*503*"
    dav_kill
}

# --- SFTP: sshd with its own host key and config, key login (the key's passphrase is the secret)
sftp() {
    local port root=$T/sftp-root user
    port=$(free_port); user=$(id -un)
    mkdir -p "$root"
    seed_server "$root"
    ssh-keygen -q -t ed25519 -N "" -f "$T/ssh_host_key"
    ssh-keygen -q -t ed25519 -N "$PASSWORD" -f "$T/client_key"
    ssh-keygen -q -t ed25519 -N "" -f "$T/stranger_key"
    cp "$T/client_key.pub" "$T/authorized_keys"
    # As root, sshd needs its privilege-separation folder; as anyone else it runs without.
    [ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd
    cat >"$T/sshd_config" <<EOF
ListenAddress 127.0.0.1:$port
$([ -z "$link_skip" ] && echo "ListenAddress $LINK_HOST:$port")
HostKey $T/ssh_host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
Subsystem sftp $T/sftp-subsystem
EOF
    # OpenSSH's own sftp-server, unless the server-error test asks the service to fail.
    printf '#!/bin/sh\nif [ -e "%s" ]; then echo "sftp service failed" >&2; exit 1; fi\nexec /usr/lib/openssh/sftp-server\n' \
        "$T/fail-sftp" >"$T/sftp-subsystem"
    chmod 755 "$T/sftp-subsystem"
    local sftp_common=("port=$port" "user=$user" shell_type=none md5sum_command=none sha1sum_command=none)
    { remote_section sftp sftp host=127.0.0.1 "${sftp_common[@]}" "key_file=$T/client_key" "key_file_pass=$OBSCURED"
      remote_section sftplink sftp "host=$LINK_HOST" "${sftp_common[@]}" "key_file=$T/client_key" "key_file_pass=$OBSCURED"
      remote_section sftpbad sftp host=127.0.0.1 "${sftp_common[@]}" "key_file=$T/stranger_key"
    } >>"$RCLONE_CONFIG"
    sftp_start() {
        /usr/sbin/sshd -D -e -f "$T/sshd_config" 2>>"$T/sshd.log" &
        sshd_pid=$!; disown "$sshd_pid"
        pids+=("$sshd_pid")
        local i; for i in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0; sleep 0.1; done
        fail "sshd did not start: $(tail -3 "$T/sshd.log")"; return 1
    }
    # Every sshd process, the connections' too (each runs in its own session): a crash.
    sftp_kill() { kill_tree "$sshd_pid"; sleep 0.3; }
    sftp_start || return
    echo "== SFTP (sshd on 127.0.0.1:$port)"
    scenario sftp "sftp:$root" "sftpbad:$root" "$root" sftp_kill sftp_start "$([ -z "$link_skip" ] && echo "sftplink:$root")"
    quota "$root" "sftp:$root"
    # The server's SFTP service fails (its subsystem exits at once), as on a NAS whose service broke.
    sftp_break() { touch "$T/fail-sftp"; }
    sftp_mend() { rm -f "$T/fail-sftp"; }
    server_error sftp "sftp:$root" sftp_break sftp_mend "*the server failed*"
    sftp_kill
}

# --- SMB: smbd with its own config, private dir and password database ---------------------------
# smbd serves files as the account that logs in, so it runs as root: as root here, else through
# sudo -n (as the e2e scripts do); without either the SMB part is skipped, and says so.
smb() {
    local port share=$T/smb-root user sudo=""
    port=$(free_port); user=$(id -un)
    if [ "$(id -u)" -ne 0 ]; then
        sudo -n true 2>/dev/null || { echo "== SMB: SKIPPED (smbd needs root: run as root or with passwordless sudo)"; smb_skipped=1; return; }
        sudo="sudo -n"
    fi
    mkdir -p "$share" "$T/smb"/{private,lock,state,cache,pid,ncalrpc}
    seed_server "$share"
    cat >"$T/smb.conf" <<EOF
[global]
    server role = standalone server
    security = user
    map to guest = never
    smb ports = $port
    interfaces = 127.0.0.1 $([ -z "$link_skip" ] && echo "$LINK_HOST/30")
    bind interfaces only = yes
    server min protocol = SMB2_10
    private dir = $T/smb/private
    lock directory = $T/smb/lock
    state directory = $T/smb/state
    cache directory = $T/smb/cache
    pid directory = $T/smb/pid
    ncalrpc dir = $T/smb/ncalrpc
    passdb backend = tdbsam:$T/smb/private/passdb.tdb
    log file = $T/smb/log
    load printers = no
    printcap name = /dev/null
    disable spoolss = yes
[photos]
    path = $share
    read only = yes
    valid users = $user
EOF
    printf '%s\n%s\n' "$PASSWORD" "$PASSWORD" | $sudo smbpasswd -c "$T/smb.conf" -s -a "$user" >/dev/null \
        || { fail "smbpasswd failed"; return; }
    { remote_section smb smb host=127.0.0.1 "port=$port" "user=$user" "pass=$OBSCURED"
      remote_section smblink smb "host=$LINK_HOST" "port=$port" "user=$user" "pass=$OBSCURED"
      remote_section smbbad smb host=127.0.0.1 "port=$port" "user=$user" "pass=$(rclone obscure wrong-password)"
    } >>"$RCLONE_CONFIG"
    smb_start() {
        $sudo /usr/sbin/smbd --foreground --no-process-group -s "$T/smb.conf" >>"$T/smbd.log" 2>&1 &
        smbd_pid=$!; disown "$smbd_pid"
        pids+=("$smbd_pid")
        local i; for i in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0; sleep 0.1; done
        fail "smbd did not start: $(tail -3 "$T/smbd.log")"; return 1
    }
    smb_kill() { $sudo bash -c "$(declare -f kill_tree); kill_tree $smbd_pid"; sleep 0.3; }
    smb_start || return
    echo "== SMB (smbd on 127.0.0.1:$port)"
    scenario smb "smb:photos" "smbbad:photos" "$share" smb_kill smb_start "$([ -z "$link_skip" ] && echo smblink:photos)"
    quota "$share" "smb:photos"
    # The share's disk is gone on the server (a NAS volume not mounted): smbd cannot serve it.
    smb_break() { mv "$share" "$share.away"; }
    smb_mend() { mv "$share.away" "$share"; }
    server_error smb "smb:photos" smb_break smb_mend "*the server does not offer the share*"
    smb_kill
}

kill_tree() {
    local child
    for child in $(ps -o pid= --ppid "$1"); do kill_tree "$child"; done
    kill -9 "$1" 2>/dev/null
}

for server in "${servers[@]}"; do "$server"; done

echo "== secrets"
cat "$XDG_STATE_HOME"/photokiosk/source-status/*.toml >>"$OUT" 2>/dev/null
if grep -qF -e "$PASSWORD" -e "$OBSCURED" "$OUT"; then fail "the password appears in the output or status: $(grep -nF -e "$PASSWORD" -e "$OBSCURED" "$OUT" | head -3)"
else pass "the password (typed and obscured) is in no output, log or status file ($(wc -l <"$OUT") lines searched)"; fi
grep -qF -e "$OBSCURED" "$RCLONE_CONFIG" || fail "the search above searched for the wrong thing"

echo "sources-test: $failures failure(s)"
[ $failures -eq 0 ]
