#!/usr/bin/env bash
# Installs the Debian packages PhotoKiosk builds and runs with, only those that are missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(pkg-config libdrm-dev libinput-dev libudev-dev libjpeg-dev libpixman-1-dev libpng-dev
          libfreetype-dev fonts-dejavu-core
          libmosquitto-dev           # MQTT client (Home Assistant, fleets)
          mosquitto mosquitto-clients  # the broker and mosquitto_sub/pub the MQTT tests run against
          # HEIF/AVIF and WebP decoding; the encoders and reference decoders make and check the tests' fixtures.
          libheif-dev libwebp-dev libheif-examples webp
          # Video clips' posters through GStreamer (loaded with dlopen; no -dev package needed); the
          # tools and x264enc (plugins-ugly) make the clip tests' fixtures, avdec_h264 (libav) decodes them.
          gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav
          gstreamer1.0-tools gstreamer1.0-plugins-ugly
          gstreamer1.0-alsa          # a clip's sound (sound.clips), and the tests that play it on ALSA's null device
          libyuv0                    # a playing clip's YUV frames onto the screen (dlopen, no -dev needed)
          libmicrohttpd-dev          # the remote page's HTTP server
          libqrencode-dev            # the pairing QR code on the frame's screen
          zbar-tools                 # zbarimg: the tests decode the QR code from a screenshot
          locales                    # locale sources the overlay's date-format tests compile with localedef
          "$@")

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing missing Debian packages: ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    # The package lists may be missing or stale on a fresh machine.
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null; then
    cat >&2 <<'MSG'
error: the Swift toolchain (swift 6.1 or newer) is not on PATH.
Debian 12 does not package it: install it from https://www.swift.org/install/linux/ (or with
swiftly), then run this command again.
MSG
    exit 1
fi
