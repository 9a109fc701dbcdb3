"""The HTML pages, one module per feature."""
