# What every systemd-booted stage's guest gets, the same way: the kiosk's config for the real
# backends and the driver's unit. Source it, then:
#   write_kiosk_config ROOT < LINES
#     ROOT/etc/photokiosk/config.toml as a frame builder edits it: DRM and libinput only (no
#     fallback to a headless screen), then the stage's own LINES
#   install_driver_unit ROOT STAGE DRIVER TTY
#     pk-e2e.service: DRIVER (in ROOT/opt/pk) as a oneshot on the serial console TTY, after the
#     kiosk, enabled for multi-user.target; e.g. install_driver_unit "$R" "unit stage" unit-driver.sh ttyS0
write_kiosk_config() {
  { printf 'kiosk = true\n[display]\nbackend = "drm"\n[input]\nbackend = "libinput"\n'; cat; } > "$1/etc/photokiosk/config.toml"
}

install_driver_unit() {
  local root=$1 stage=$2 driver=$3 tty=$4
  cat > "$root/etc/systemd/system/pk-e2e.service" <<UNIT
[Unit]
Description=PhotoKiosk end-to-end driver ($stage)
After=photokiosk.service systemd-udevd.service

[Service]
Type=oneshot
ExecStart=/opt/pk/$driver
StandardInput=tty
StandardOutput=tty
TTYPath=/dev/$tty

[Install]
WantedBy=multi-user.target
UNIT
  ln -sf /etc/systemd/system/pk-e2e.service "$root/etc/systemd/system/multi-user.target.wants/pk-e2e.service"
}
