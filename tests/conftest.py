"""Shared fixtures: personas and the demo data."""
