"""Compiled variants. Every module here is written by `mjc build` from
`variants/NAME.yaml`; edit the YAML, never these files."""
