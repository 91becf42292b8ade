"""The version of godlpack, written only here: pyproject.toml reads it for the package's metadata."""

__version__ = "0.1.0"
