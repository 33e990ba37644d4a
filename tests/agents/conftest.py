"""Fixtures the agents' tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codenames_ai.agents.registry import REGISTRY


@pytest.fixture
def scratch_ids() -> Iterator[list[str]]:
    """Ids a test registers, removed afterwards so the registry stays as shipped."""
    added: list[str] = []
    yield added
    for agent_id in added:
        REGISTRY.pop(agent_id, None)
