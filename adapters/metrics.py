"""The bot's Prometheus metrics (prometheus-client), served on ``/metrics`` by
adapters/ops.py.

Each :class:`Metrics` has a registry of its own, not the library's global default:
two runs in one process (tests) count apart, and nothing a library registers
globally is published. What they count comes from where it is known — the core
tells of each command (``Core.watch_commands``), the adapters of each reply and
connection (adapters/watch.py), the store's writer keeps its batch counts, the
outbox is read at each scrape — so neither the core nor a platform package imports
this library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.dispatcher import Handled
from bot.store.writer import Writer


class Metrics:
    def __init__(self, writer: Writer, platforms: Iterable[str]) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.commands = Counter(
            "trpgbot_commands", "Commands that ran at their table, answered or refused",
            ["system", "platform"], registry=registry)
        self.latency = Histogram(
            "trpgbot_command_seconds",
            "Seconds from a command's arrival to its replies being committed",
            ["system", "platform"], registry=registry)
        self.replies_sent = Counter(
            "trpgbot_replies_sent", "Replies the platform accepted", ["platform"],
            registry=registry)
        self.replies_failed = Counter(
            "trpgbot_replies_failed",
            "Replies the platform refused (a private message included, whose notice then "
            "went to the channel)", ["platform"], registry=registry)
        self.outbox_pending = Gauge(
            "trpgbot_outbox_pending",
            "Replies stored and not yet accepted by their platform (every process)",
            registry=registry)
        self.outbox_oldest = Gauge(
            "trpgbot_outbox_oldest_seconds", "Age of the oldest reply in the outbox (0: none)",
            registry=registry)
        self.connected = Gauge(
            "trpgbot_adapter_connected", "1 while the platform's adapter is connected",
            ["platform"], registry=registry)
        for platform in platforms:  # every enabled platform shows, at 0 until it connects
            self.connected.labels(platform).set(0)
            self.replies_sent.labels(platform)
            self.replies_failed.labels(platform)
        registry.register(StoreBatches(writer))

    def command(self, handled: Handled) -> None:
        """A ``Core.watch_commands`` watcher."""
        self.commands.labels(handled.system, handled.platform).inc()
        self.latency.labels(handled.system, handled.platform).observe(handled.seconds)

    def outbox(self, pending: int, oldest: float | None) -> None:
        self.outbox_pending.set(pending)
        self.outbox_oldest.set(oldest or 0.0)


class StoreBatches(Collector):
    """The writer's batches (bot/store/writer.py) and the commands they held, read at
    each scrape: the mean batch size is the ratio of their rates."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily("trpgbot_store_batches", "Store batches committed",
                                  value=self.writer.commits)
        yield CounterMetricFamily("trpgbot_store_batched_commands",
                                  "Commands committed in those batches",
                                  value=self.writer.committed)
