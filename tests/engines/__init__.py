"""Tests of the framework-free rule engines (``engines/``): no database, no Django."""
