#!/usr/bin/env bash
# The nightly backup (nskt-backup.timer): pg_dump --format=custom of DATABASE_URL into BACKUP_DIR
# as nskt-YYYY-MM-DD-HHMMSS.dump, then removes the dumps older than BACKUP_KEEP_DAYS days (14).
# A dump is written under a temporary name and renamed when complete, so a failed or interrupted
# run never leaves a half file that looks like a backup, and never removes an old one.
# docs/operations.md, "Backup and restore".
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL is not set}"
BACKUP_DIR=${BACKUP_DIR:-/srv/nskt/backups}
KEEP_DAYS=${BACKUP_KEEP_DAYS:-14}
case "$KEEP_DAYS" in ""|0|*[!0-9]*) echo "BACKUP_KEEP_DAYS must be a whole number of days, at least 1" >&2; exit 2;; esac
umask 077
mkdir -p "$BACKUP_DIR"
name="nskt-$(date +%Y-%m-%d-%H%M%S).dump"
tmp="$BACKUP_DIR/.$name.partial"
trap 'rm -f "$tmp"' EXIT
pg_dump --format=custom --file="$tmp" "$DATABASE_URL"
mv "$tmp" "$BACKUP_DIR/$name"
echo "backup written: $BACKUP_DIR/$name ($(du -h "$BACKUP_DIR/$name" | cut -f1))"
# Rotation: whole days since the last change, like find -mtime.
find "$BACKUP_DIR" -maxdepth 1 -type f -name 'nskt-*.dump' -mtime "+$((KEEP_DAYS - 1))" -print -delete \
  | sed 's/^/removed: /'
