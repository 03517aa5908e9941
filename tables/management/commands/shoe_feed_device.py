"""Pair a card-reading shoe or a document camera with a table: prints the device's key once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.models import ShoeFeedDevice, Table
from tables.services import shoe_feed


class Command(BaseCommand):
    help = ("Issue (or --revoke) a shoe feed key for a table. The device posts images to "
            "/api/tables/{id}/shoe-feed/ with 'Authorization: Device <key>'.")  # fmt: skip

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, required=True, help="the table's number")
        parser.add_argument("--name", default="card-reading shoe", help="what the device is")
        parser.add_argument("--by", required=True, help="the pit boss pairing the device (user name)")
        parser.add_argument("--revoke", action="store_true", help="revoke the table's devices of this name")

    def handle(self, *args: Any, **opts: Any) -> None:
        table = Table.objects.filter(number=opts["table"]).first()
        if table is None:
            raise CommandError(f"no table {opts['table']}")
        actor = get_user_model().objects.filter(username=opts["by"]).first()
        if actor is None:
            raise CommandError(f"no user {opts['by']!r}")
        if opts["revoke"]:
            for device in ShoeFeedDevice.objects.filter(table=table, name=opts["name"], revoked_at__isnull=True):
                shoe_feed.shoe_feed_revoke(device=device, actor=actor)
                self.stdout.write(f"revoked {device}")
            return
        device, key = shoe_feed.shoe_feed_issue(table=table, name=opts["name"], actor=actor)
        self.stdout.write(f"table {table.number} (id {table.pk}), device {device.pk} {device.name!r}\n"
                          f"Authorization: Device {key}")  # fmt: skip
