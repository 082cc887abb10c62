"""The name of this machine's processor, as the bench sets it beside the reference's."""

from __future__ import annotations

import platform

CPUINFO = "/proc/cpuinfo"


def this_processor() -> str:
    """The processor's model name (`AMD EPYC`, `Intel(R) Xeon(R) ...`) from Linux's
    /proc/cpuinfo; elsewhere what platform knows, at least the architecture."""
    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return " ".join(value.split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "an unknown processor"
