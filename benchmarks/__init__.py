"""Benchmarks, run by hand: ``python -m benchmarks.engine``. They print figures; tests never
fail on timing."""
