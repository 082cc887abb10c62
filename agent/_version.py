"""The package's version, apart from the package face (agent/__init__.py) so that the
modules inside the package, and pyproject's dynamic version, read it without importing
the face."""

__version__ = "0.2.0.dev0"
