"""Expanding Nim: rules, a networked game server, a client library, a perfect solver and the CLIs."""
