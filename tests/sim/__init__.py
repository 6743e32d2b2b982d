"""Toolkit simulator for tests and benchmarks: ``ToolkitSim`` in-process, ``python -m tests.sim`` standalone."""

from tests.sim.server import Received, SimRegistry, ToolkitSim, canonical_key, instance_hash

__all__ = ["Received", "SimRegistry", "ToolkitSim", "canonical_key", "instance_hash"]
