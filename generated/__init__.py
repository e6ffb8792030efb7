"""Compiled variants. Every module here is written by `mjc build` from
`variants/NAME.yaml`; edit the YAML, never these files."""
import runtime  # noqa: F401  (MJC_PURE=1: its import hook must come before any compiled variant loads)
