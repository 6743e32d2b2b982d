"""Tests for the GDScript language-server client and the lsp_* tools."""
