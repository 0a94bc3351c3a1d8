"""Benchmarks: speed targets live here, never in tests (run each as python -m bench.<name>)."""
