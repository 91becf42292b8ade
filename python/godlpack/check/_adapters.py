"""Adapters for libraries that are not array API namespaces (filled in below as they are measured)."""
